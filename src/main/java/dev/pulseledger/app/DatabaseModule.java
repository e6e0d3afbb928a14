package dev.pulseledger.app;

import dev.pulseledger.config.Config;
import dev.pulseledger.config.Settings;
import dev.pulseledger.db.OwnWrites;
import dev.pulseledger.db.ReadTargets;
import dev.pulseledger.store.Database;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.time.Duration;
import java.util.List;
import java.util.Optional;

/**
 * The node's two connection pools: the main one, migrated when it opens, and a small one that
 * authentication reads through, so that a key lookup never queues behind the spend writer; with
 * {@code --read-database-url}, the read replicas that the main pool's lagging reads go to, and the
 * requesters' own writes that keep their reads on the primary (CONTRACT §18).
 */
public record DatabaseModule(Database main, Database lookups, Optional<OwnWrites> ownWrites) {

    /** A replica that does not lend a connection at once is passed over: the primary serves the read. */
    private static final Duration REPLICA_CONNECTION_TIMEOUT = Duration.ofMillis(250);

    public static DatabaseModule open(Config config, PrometheusMeterRegistry metrics, StartedParts parts) {
        int lookupConnections = lookupConnections(config.get(Settings.DB_POOL_SIZE));
        Database main = parts.add(
                "database", Database.open(settings(config, config.get(Settings.DB_POOL_SIZE) - lookupConnections)));
        Database lookups =
                parts.add("lookup database", Database.openWithoutMigrating(settings(config, lookupConnections)));
        countTransactions(metrics, main, "main");
        countTransactions(metrics, lookups, "lookups");
        main.bindPoolMetrics(metrics, "main");
        lookups.bindPoolMetrics(metrics, "lookups");
        main.bindReachability(metrics);
        return new DatabaseModule(main, lookups, readReplicas(config, main, metrics, parts));
    }

    /**
     * A small pool per replica and its lag probe; the main pool's lagging reads then go to a fresh
     * replica (db/ReadTargets). Empty without replicas.
     */
    private static Optional<OwnWrites> readReplicas(
            Config config, Database main, PrometheusMeterRegistry metrics, StartedParts parts) {
        List<String> urls = config.readReplicas();
        if (urls.isEmpty()) {
            return Optional.empty();
        }
        OwnWrites ownWrites = new OwnWrites();
        ReadTargets targets = parts.add(
                "read replicas",
                ReadTargets.open(
                        main,
                        urls,
                        url -> new Database.Settings(
                                url,
                                Math.max(2, config.get(Settings.DB_POOL_SIZE) / 2),
                                REPLICA_CONNECTION_TIMEOUT,
                                config.get(Settings.DB_STATEMENT_TIMEOUT),
                                Duration.ZERO,
                                config.get(Settings.DB_POOLER).equals("transaction")),
                        config.get(Settings.MAX_REPLICA_LAG),
                        ownWrites,
                        metrics));
        parts.startLater("read replica probes", targets::start);
        return Optional.of(ownWrites);
    }

    /**
     * Accounts locked elsewhere wait for their lock on a connection each, at most half of the writers'
     * pool, so that the writer and the reads keep the rest.
     */
    public static int busyAccountConnections(Config config) {
        int poolSize = config.get(Settings.DB_POOL_SIZE);
        return Math.max(1, (poolSize - lookupConnections(poolSize)) / 2);
    }

    /**
     * How many of a node's connections serve key lookups and the access feed: rare once keys are
     * cached, so one, or two from four on so the feed's read never holds up a lookup.
     */
    private static int lookupConnections(int poolSize) {
        return poolSize >= 4 ? 2 : 1;
    }

    private static Database.Settings settings(Config config, int poolSize) {
        return new Database.Settings(
                config.get(Settings.DATABASE_URL),
                poolSize,
                config.get(Settings.DB_CONNECTION_TIMEOUT),
                config.get(Settings.DB_STATEMENT_TIMEOUT),
                config.get(Settings.DB_STARTUP_TIMEOUT),
                config.get(Settings.DB_POOLER).equals("transaction"));
    }

    private static void countTransactions(PrometheusMeterRegistry metrics, Database database, String pool) {
        FunctionCounter.builder("pulseledger.db.transactions", database, Database::transactions)
                .description("Database transactions and single reads, per connection pool")
                .tag("pool", pool)
                .register(metrics);
    }
}
