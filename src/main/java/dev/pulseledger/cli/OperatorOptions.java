package dev.pulseledger.cli;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.Writer;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.function.BiConsumer;
import java.util.function.Function;
import org.jspecify.annotations.Nullable;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * The options every operator command shares ({@code --url}, {@code --admin-key}, {@code --json}),
 * and the one way a command calls the service and prints the answer or the failure.
 */
final class OperatorOptions {
    @Option(
            names = "--url",
            paramLabel = "URL",
            defaultValue = "${env:PULSELEDGER_URL:-http://localhost:8080}",
            description = "The running service (PULSELEDGER_URL, default ${DEFAULT-VALUE}).")
    String url;

    // The default is never shown in help: it is a secret.
    @Option(
            names = "--admin-key",
            paramLabel = "KEY",
            defaultValue = "${env:PULSELEDGER_ADMIN_KEY}",
            description =
                    "The admin key (PULSELEDGER_ADMIN_KEY). Prefer the variable: a flag shows in the process list.")
    @Nullable
    String adminKey;

    @Option(names = "--json", description = "Print the service's JSON answer instead of a table.")
    boolean json;

    @Spec(Spec.Target.MIXEE)
    CommandSpec command;

    /** Sends the request and prints its answer; returns the exit code. */
    int run(Function<OperatorClient, OperatorClient.Answer> request, Output output) {
        return call((client, out) -> {
            OperatorClient.Answer answer = request.apply(client);
            if (json) {
                if (!answer.text().isEmpty()) {
                    out.println(answer.text());
                }
            } else {
                output.print(answer.json(), out);
            }
        });
    }

    /**
     * Downloads a file the service streams to {@code file}, or to standard output without one; returns the
     * exit code. A file is written only whole: it appears under its name once everything arrived, readable
     * by its owner alone where the file system allows (an export holds personal data).
     */
    int download(String path, String accept, @Nullable Path file) {
        return call((client, out) -> {
            if (file == null) {
                client.download(path, accept, out);
            } else {
                toFile(client, path, accept, file);
                out.println("Wrote " + Output.printable(file.toString()) + ".");
            }
        });
    }

    /** Runs one call of the service with standard output at hand; a failure is printed with its exit code. */
    private int call(BiConsumer<OperatorClient, PrintWriter> work) {
        PrintWriter out = command.commandLine().getOut();
        PrintWriter err = command.commandLine().getErr();
        try (OperatorClient client = new OperatorClient(serviceUri(), adminKey())) {
            work.accept(client, out);
            out.flush();
            return ExitCodes.OK;
        } catch (CliFailure failure) {
            err.println("pulseledger: " + Output.printable(String.valueOf(failure.getMessage())));
            err.flush();
            return failure.exitCode();
        }
    }

    private static void toFile(OperatorClient client, String path, String accept, Path file) {
        Path target = file.toAbsolutePath();
        Path partial = target.resolveSibling(target.getFileName() + ".part");
        try {
            Files.deleteIfExists(partial);
            if (partial.getFileSystem().supportedFileAttributeViews().contains("posix")) {
                Files.createFile(
                        partial, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
            }
            try (Writer sink = Files.newBufferedWriter(partial, StandardCharsets.UTF_8)) {
                client.download(path, accept, sink);
            }
            Files.move(partial, target, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        } catch (IOException e) {
            throw new CliFailure(
                    ExitCodes.USAGE,
                    "cannot write " + file + " (" + e.getClass().getSimpleName() + ")");
        } finally {
            try {
                Files.deleteIfExists(partial);
            } catch (IOException e) {
                // Nothing more to do: the failure above is what the operator needs to hear.
            }
        }
    }

    /** A usage error of this command: picocli prints it with the usage help and exits with 2. */
    ParameterException usageError(String message) {
        return new ParameterException(command.commandLine(), message);
    }

    private URI serviceUri() {
        try {
            URI uri = new URI(url);
            boolean web = "http".equalsIgnoreCase(uri.getScheme()) || "https".equalsIgnoreCase(uri.getScheme());
            if (web
                    && uri.getHost() != null
                    && uri.getRawUserInfo() == null
                    && uri.getRawQuery() == null
                    && uri.getRawFragment() == null) {
                return uri;
            }
        } catch (URISyntaxException e) {
            // answered below
        }
        throw usageError("--url must be an http:// or https:// URL such as http://localhost:8080, not '" + url + "'");
    }

    private String adminKey() {
        if (adminKey == null || adminKey.isBlank()) {
            throw usageError("No admin key: set PULSELEDGER_ADMIN_KEY or pass --admin-key");
        }
        if (!adminKey.chars().allMatch(c -> c > ' ' && c < 127)) {
            throw usageError("The admin key may hold only printable ASCII characters without spaces");
        }
        return adminKey;
    }
}
