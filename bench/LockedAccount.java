import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;

/**
 * The one-locked-account case (issue 19, PostgreSQL): the spends of a few other accounts are measured
 * twice in one run, while callers of one more account spend all along: first with nothing in the way,
 * then while an outside session holds that account's row lock ({@code SELECT … FOR UPDATE} in an open
 * transaction, as an operator's {@code psql} would). Afterwards: how soon that account spends again.
 */
final class LockedAccount {
    static final int OTHER_ACCOUNTS = 7;
    static final int LOCKED_CONNECTIONS = 4;
    static final String OTHERS_BEFORE = "spend, 7 others, nothing locked";
    static final String OTHERS_LOCKED = "spend, 7 others, 1 account locked";
    static final String LOCKED_ACCOUNT = "spend, the locked account";

    /** Runs wrk as the other cases do; returns what its script reported. */
    @FunctionalInterface
    interface Load {
        Wrk.Run run(String name, String keyOrFile, int connections) throws Exception;
    }

    /** Both phases' runs, and the time from the lock's end to the locked account's next 201. */
    record Runs(
            Wrk.Run othersBefore,
            Wrk.Run lockedBefore,
            Wrk.Run othersLocked,
            Wrk.Run lockedLocked,
            Duration spendsAgainAfter) {}

    private LockedAccount() {}

    static Runs run(Server server, String url, Seed seed, Path folder, int connections, Load wrk) throws Exception {
        Path others = folder.resolve("others-keys.txt");
        Files.write(others, Files.readAllLines(seed.spreadKeys()).subList(0, OTHER_ACCOUNTS));
        String othersFile = "@" + others.toAbsolutePath();
        Wrk.Run[] before = alongside(wrk, othersFile, seed.hotKey(), connections, false);
        Wrk.Run[] locked;
        long releasedAt;
        try (Connection outside = DriverManager.getConnection(url)) {
            outside.setAutoCommit(false);
            try (PreparedStatement ps = outside.prepareStatement("SELECT 1 FROM accounts WHERE id = ? FOR UPDATE")) {
                ps.setString(1, seed.hotAccountId());
                ps.executeQuery().close();
            }
            locked = alongside(wrk, othersFile, seed.hotKey(), connections, true);
            outside.rollback();
            releasedAt = System.nanoTime();
        }
        while (server.spend(seed.hotKey()) != 201) {
            if (System.nanoTime() - releasedAt > Duration.ofSeconds(30).toNanos()) {
                throw new IllegalStateException("the locked account did not spend again within 30 s of the lock's end");
            }
        }
        return new Runs(before[0], before[1], locked[0], locked[1], Duration.ofNanos(System.nanoTime() - releasedAt));
    }

    /** The others' load and the locked account's callers at once; returns their runs in that order. */
    private static Wrk.Run[] alongside(Load wrk, String othersFile, String lockedKey, int connections, boolean locked)
            throws Exception {
        CompletableFuture<Wrk.Run> lockedCallers = CompletableFuture.supplyAsync(() -> {
            try {
                return wrk.run(locked ? LOCKED_ACCOUNT : LOCKED_ACCOUNT + " (not locked yet)", lockedKey, LOCKED_CONNECTIONS);
            } catch (Exception e) {
                throw new CompletionException(e);
            }
        });
        Wrk.Run othersRun = wrk.run(locked ? OTHERS_LOCKED : OTHERS_BEFORE, othersFile, connections);
        return new Wrk.Run[] {othersRun, lockedCallers.join()};
    }

    /** The figures the issue asks for, from one run. */
    static List<String> summary(Runs runs) {
        double rate = runs.othersLocked().requestsPerSecond() / runs.othersBefore().requestsPerSecond();
        double p99Before = runs.othersBefore().p99Micros() / 1000.0;
        double p99Locked = runs.othersLocked().p99Micros() / 1000.0;
        return List.of(
                String.format(
                        java.util.Locale.ROOT,
                        "others' spend rate while one account is locked = %.2f× their rate before (%.0f vs %.0f req/s)"
                                + " (target ≥ 0.80×)",
                        rate,
                        runs.othersLocked().requestsPerSecond(),
                        runs.othersBefore().requestsPerSecond()),
                String.format(
                        java.util.Locale.ROOT,
                        "others' p99 %.1f ms while locked vs %.1f ms before = %.2f× (target ≤ 3× or ≤ 100 ms)",
                        p99Locked,
                        p99Before,
                        p99Locked / p99Before),
                String.format(
                        java.util.Locale.ROOT,
                        "the locked account's slowest answer while locked %.0f ms (target ≤ 6000 ms); statuses %s",
                        runs.lockedLocked().maxMicros() / 1000.0,
                        runs.lockedLocked().statusText()),
                String.format(
                        java.util.Locale.ROOT,
                        "the locked account spent again %.0f ms after the lock's end (target ≤ 2000 ms)",
                        runs.spendsAgainAfter().toNanos() / 1e6));
    }
}
