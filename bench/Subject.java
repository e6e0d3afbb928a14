import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * One server jar under test on one store: its own fresh database and seed, its server process, and
 * the 201s its clients counted. The jar built from the sources is one; {@code --baseline-jar} adds
 * another, measured beside it case by case.
 */
final class Subject {
    final String label;
    final Path jar;
    final String url;
    final Optional<String> database;
    Seed seed;
    Server server;
    Cpu cpu;
    long hotSpent201;
    long hotInFlightBound;
    long spreadSpent201;
    long spreadInFlightBound;

    Subject(String label, Path jar, String url, Optional<String> database) {
        this.label = label;
        this.jar = jar;
        this.url = url;
        this.database = database;
    }

    /** Adds a run's 201s on the hot account; up to {@code connections} more may have landed unanswered. */
    void countHot(Wrk.Run run, int connections) {
        hotSpent201 += run.count(201);
        hotInFlightBound += connections;
    }

    /** Adds a run's 201s on the spread accounts; up to {@code connections} more may have landed unanswered. */
    void countSpread(Wrk.Run run, int connections) {
        spreadSpent201 += run.count(201);
        spreadInFlightBound += connections;
    }

    /** wrk's key argument that rotates over the spread accounts' keys. */
    String spreadKeysArgument() {
        return "@" + seed.spreadKeys().toAbsolutePath();
    }

    boolean baseline() {
        return !label.isEmpty();
    }

    /** The case's name in the results: the baseline's cases are marked. */
    String name(String name) {
        return baseline() ? name + " " + label : name;
    }

    /**
     * Seeds the database. The jar built from the sources is the bench's own code, whose migrations it
     * runs; another jar first migrates its own schema by starting once, and is seeded in that schema.
     */
    void seed(Options options, Path folder) throws Exception {
        if (baseline()) {
            try (Server first = Server.start(options, jar, url, folder, "baseline-migrate")) {
                System.out.println("  " + label + " migrated its database on port " + first.port());
            }
        }
        seed = Seed.create(url, options.accounts(), folder, !baseline());
    }

    void start(Options options, Path folder, String store) throws Exception {
        server = Server.start(options, jar, url, folder, baseline() ? store + "-baseline" : store);
        cpu = new Cpu(server.pid(), database);
    }

    /** What the jar's own {@code verify} said: it exits 0 when every invariant holds. */
    record Verdict(boolean passed, String output) {}

    Verdict verify() throws Exception {
        List<String> command = new ArrayList<>(List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-jar",
                jar.toString(),
                "verify",
                "--database-url",
                url));
        try {
            return new Verdict(true, Processes.run(command, Duration.ofMinutes(30), Map.of(), true).trim());
        } catch (IllegalStateException e) {
            return new Verdict(false, e.getMessage().trim());
        }
    }
}
