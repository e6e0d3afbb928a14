import java.nio.file.Files;

/**
 * The Pulseledger benchmark in one run (docs/PERFORMANCE.md): for each store it seeds a fresh
 * database, starts the server as the README does, drives it with wrk on loopback, runs the naive
 * one-transaction-per-spend pgbench baseline on the same PostgreSQL, in interleaved rounds (each case
 * beside its yardstick, every ratio the median of the rounds), then stops the server and checks that
 * the ledger holds exactly the spends the clients were told about.
 *
 * <p>Run it with {@code bench/run.sh [options]}; {@code --help} lists the options. The other files
 * here, one job each: {@code Options} (the command line), {@code StoreRun} (every case on one store),
 * {@code ScaleRun} (the scale case), {@code ReplicaRun} and {@code ReplicaCluster} (the read-replica case), {@code Subject} (one jar under test with its database), {@code Seed}
 * (the bench data), {@code LockedAccount} (the others' spends while one account is locked from outside),
 * {@code Server} (the server process), {@code Wrk} (the load), {@code Postgres} (the databases and the pgbench
 * baseline), {@code Cpu} and {@code Machine} (what was used and on what), {@code Processes} (running
 * tools), {@code Result} and {@code Report} (the numbers and the Markdown), {@code DocsSection} (the
 * Markdown into docs/PERFORMANCE.md).
 */
public final class Bench {
    static final long HOT_BALANCE = 1_000_000_000_000L;
    static final long SPREAD_BALANCE = 1_000_000_000L;
    static final int SERVICES = 50;
    static final double MB = 1024;

    public static void main(String[] args) throws Exception {
        Options options = Options.parse(args);
        Files.createDirectories(options.out());
        Report report = new Report();
        report.machine = Machine.describe(options);
        System.out.println(report.machine);
        if (!Options.DEFAULT_CASES.stream().filter(options::wants).toList().isEmpty()) {
            for (String store : options.stores()) {
                new StoreRun(options, store, report).run();
            }
        }
        if (options.wants("scale")) {
            new ScaleRun(options, report).run();
        }
        if (options.wants("replica")) {
            new ReplicaRun(options, report).run();
        }
        report.loadAfter = Machine.loadAverage();
        String text = report.render(options);
        System.out.println();
        System.out.println(text);
        Files.writeString(options.out().resolve("results.md"), text);
        if (options.docs().isPresent()) {
            DocsSection.write(options.docs().get(), args, text);
        }
        System.out.println("Logs and results: " + options.out());
        System.exit(report.checksPassed() ? 0 : 1);
    }
}
