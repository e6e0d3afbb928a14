import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/** Runs a command to its end and returns what it printed. */
final class Processes {
    static String run(List<String> command, Duration timeout) throws IOException, InterruptedException {
        return run(command, timeout, Map.of(), true);
    }

    static String run(
            List<String> command, Duration timeout, Map<String, String> environment, boolean requireSuccess)
            throws IOException, InterruptedException {
        ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true);
        builder.environment().putAll(environment);
        Process process = builder.start();
        StringWriter output = new StringWriter();
        Thread reader = Thread.ofVirtual().start(() -> {
            try (PrintWriter writer = new PrintWriter(output)) {
                process.inputReader().lines().forEach(writer::println);
            }
        });
        if (!process.waitFor(timeout.toSeconds(), TimeUnit.SECONDS)) {
            process.destroyForcibly();
            throw new IllegalStateException("timed out: " + String.join(" ", command));
        }
        reader.join();
        if (requireSuccess && process.exitValue() != 0) {
            throw new IllegalStateException("exit " + process.exitValue() + ": " + String.join(" ", command) + "\n" + output);
        }
        return output.toString();
    }
}
