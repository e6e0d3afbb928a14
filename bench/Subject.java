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
    /** Plain spends (1 token) and settles (7 tokens) the clients were answered, per group of accounts. */
    final Told hotSpends = new Told();
    final Told hotSettles = new Told();
    final Told spreadSpends = new Told();
    final Told spreadSettles = new Told();
    /** What the mixed case's clients were told. */
    final MixedLoad.Told mixed = new MixedLoad.Told();

    Subject(String label, Path jar, String url, Optional<String> database) {
        this.label = label;
        this.jar = jar;
        this.url = url;
        this.database = database;
    }

    /**
     * Requests of one kind that the clients saw succeed, and how many more may have landed unanswered
     * (one per connection still in flight when wrk stopped).
     */
    static final class Told {
        long answered;
        long inFlightBound;

        void add(long count, int connections) {
            answered += count;
            inFlightBound += connections;
        }

        /** The ledger holds every answered one, and at most the unanswered ones more. */
        boolean matches(long inLedger) {
            return inLedger >= answered && inLedger - answered <= inFlightBound;
        }
    }

    /** Adds a run's 201s on the hot account; up to {@code connections} more may have landed unanswered. */
    void countHot(Wrk.Run run, int connections) {
        hotSpends.add(run.count(201), connections);
    }

    /** Adds a run's 201s on the spread accounts; up to {@code connections} more may have landed unanswered. */
    void countSpread(Wrk.Run run, int connections) {
        spreadSpends.add(run.count(201), connections);
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
