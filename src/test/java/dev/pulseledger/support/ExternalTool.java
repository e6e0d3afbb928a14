package dev.pulseledger.support;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assertions;
import org.junit.jupiter.api.Assumptions;

/**
 * A command-line tool a test checks our output with (promtool, Redocly CLI). Without it a test is
 * skipped on a workstation but fails under CI, where .ci/run installs it.
 */
public final class ExternalTool {
    /** What a run printed and how it ended. */
    public record Result(int exitCode, String stdout, String stderr) {
        /** Both streams, stdout first. */
        public String output() {
            return stdout + stderr;
        }
    }

    private static final Duration TIMEOUT = Duration.ofMinutes(2);

    private final Path executable;

    private ExternalTool(Path executable) {
        this.executable = executable;
    }

    /** The first executable of this name on PATH or in the given folders; skips or fails without one. */
    public static ExternalTool require(String name, String install, Path... moreFolders) {
        List<Path> folders = new ArrayList<>(List.of(moreFolders));
        for (String entry : System.getenv().getOrDefault("PATH", "").split(java.io.File.pathSeparator)) {
            if (!entry.isEmpty()) {
                folders.add(Path.of(entry));
            }
        }
        Optional<Path> found = folders.stream()
                .map(folder -> folder.resolve(name))
                .filter(Files::isExecutable)
                .findFirst();
        String message = "This test needs " + name + ": " + install;
        if (found.isEmpty() && "true".equals(System.getenv("CI"))) {
            Assertions.fail(message + " (CI must install it; .ci/run does)");
        }
        Assumptions.assumeTrue(found.isPresent(), message);
        return new ExternalTool(found.get());
    }

    /** Where the tool is, for a test that starts it as a server rather than {@link #run} it. */
    public Path path() {
        return executable;
    }

    /** Runs the tool with these arguments and {@code stdin} as its input, within two minutes. */
    public Result run(String stdin, String... arguments) {
        List<String> command = new ArrayList<>();
        command.add(executable.toString());
        command.addAll(List.of(arguments));
        try {
            Path errors = Files.createTempFile("tool-stderr", ".txt");
            Process process = new ProcessBuilder(command)
                    .redirectError(ProcessBuilder.Redirect.to(errors.toFile()))
                    .start();
            try (var in = process.getOutputStream()) {
                in.write(stdin.getBytes(StandardCharsets.UTF_8));
            }
            byte[] output = process.getInputStream().readAllBytes();
            if (!process.waitFor(TIMEOUT.toMillis(), TimeUnit.MILLISECONDS)) {
                process.destroyForcibly();
                Assertions.fail(executable + " did not finish within " + TIMEOUT);
            }
            String stderr = Files.readString(errors);
            Files.delete(errors);
            return new Result(process.exitValue(), new String(output, StandardCharsets.UTF_8), stderr);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
