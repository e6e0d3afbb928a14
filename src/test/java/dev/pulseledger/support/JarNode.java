package dev.pulseledger.support;

import java.io.BufferedReader;
import java.io.File;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A node run as its own process from the packaged jar, exactly as an operator starts it, on the same
 * JDK as the tests. Only integration tests use it: the jar exists once {@code package} has run.
 */
public final class JarNode implements AutoCloseable {
    private static final Path JAR = Path.of("target", "pulseledger.jar");
    private static final Pattern LISTENING = Pattern.compile("Pulseledger \\S+ listening on https?://[^ ]+:(\\d+)/");
    private static final Duration START_TIMEOUT = Duration.ofSeconds(90);
    private static final Duration STOP_TIMEOUT = Duration.ofSeconds(20);

    private final Process process;
    private final StringBuffer output;
    private final int port;

    private JarNode(Process process, StringBuffer output, int port) {
        this.process = process;
        this.output = output;
        this.port = port;
    }

    /**
     * Starts {@code java -jar target/pulseledger.jar serve} on a free port, with any further
     * {@code serve} flags, and waits until it listens.
     */
    public static JarNode start(String databaseUrl, String... extraFlags) {
        return launch(List.of("-jar", JAR.toString(), "serve"), databaseUrl, List.of(extraFlags));
    }

    /**
     * Starts the jar's node with a clock {@code rate} times faster than real time from {@code start}
     * at real time {@code realStartMillis} ({@link FastClockNode}); the same arguments after a kill go on
     * with the same time.
     */
    public static JarNode startWithFastClock(String databaseUrl, Instant start, long realStartMillis, long rate) {
        String classpath = JAR + File.pathSeparator + Path.of("target", "test-classes");
        return launch(
                List.of(
                        "-cp",
                        classpath,
                        FastClockNode.class.getName(),
                        start.toString(),
                        Long.toString(realStartMillis),
                        Long.toString(rate)),
                databaseUrl,
                List.of());
    }

    private static JarNode launch(List<String> launcher, String databaseUrl, List<String> extraFlags) {
        if (!Files.isRegularFile(JAR)) {
            throw new IllegalStateException(JAR + " is missing: integration tests run after `./mvnw package`");
        }
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        List<String> command = new ArrayList<>(List.of(java, "-Xmx256m"));
        command.addAll(launcher);
        command.addAll(List.of("--host", "127.0.0.1", "--port", "0", "--database-url", databaseUrl));
        command.addAll(extraFlags);
        ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true);
        // Through the environment, not a flag, so the key does not show in the process list.
        builder.environment().put("PULSELEDGER_ADMIN_KEY", TestNode.ADMIN_KEY);
        Process process;
        try {
            process = builder.start();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        StringBuffer output = new StringBuffer();
        CompletableFuture<Integer> port = new CompletableFuture<>();
        Thread.ofPlatform().daemon().name("jar-node-output").start(() -> follow(process, output, port));
        try {
            return new JarNode(process, output, port.get(START_TIMEOUT.toSeconds(), TimeUnit.SECONDS));
        } catch (ExecutionException | TimeoutException e) {
            process.destroyForcibly();
            throw new IllegalStateException("The node did not start listening. Its output:\n" + output, e);
        } catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    /** Copies the node's output and reports the port of its "listening" line. */
    private static void follow(Process process, StringBuffer output, CompletableFuture<Integer> port) {
        try (BufferedReader lines =
                new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
            for (String line = lines.readLine(); line != null; line = lines.readLine()) {
                output.append(line).append('\n');
                Matcher listening = LISTENING.matcher(line);
                if (listening.find()) {
                    port.complete(Integer.parseInt(listening.group(1)));
                }
            }
        } catch (IOException e) {
            // The process died; the exit below says so.
        }
        port.completeExceptionally(new IllegalStateException("The node exited before it listened"));
    }

    public String baseUrl() {
        return "http://127.0.0.1:" + port;
    }

    public Api admin() {
        return new Api(baseUrl(), TestNode.ADMIN_KEY);
    }

    /** Everything the node printed so far. */
    public String output() {
        return output.toString();
    }

    /** SIGKILL: the JDK's forcible destroy on Unix. No shutdown hook runs, nothing is flushed. */
    public void kill() {
        process.destroyForcibly();
        awaitExit();
    }

    /** SIGSTOP: the process stops where it is, holding its sockets and any database locks. */
    public void pause() {
        signal("STOP");
    }

    /** SIGCONT after {@link #pause()}. */
    public void resume() {
        signal("CONT");
    }

    private void signal(String name) {
        try {
            Process kill = new ProcessBuilder("kill", "-" + name, Long.toString(process.pid())).start();
            if (!kill.waitFor(10, TimeUnit.SECONDS) || kill.exitValue() != 0) {
                throw new IllegalStateException("kill -" + name + " " + process.pid() + " failed");
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    /** SIGTERM and wait, as an orderly stop; a node that does not stop is then killed. */
    @Override
    public void close() {
        if (!process.isAlive()) {
            return;
        }
        process.destroy();
        if (!awaitExit()) {
            kill();
        }
    }

    private boolean awaitExit() {
        try {
            return process.waitFor(STOP_TIMEOUT.toSeconds(), TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }
}
