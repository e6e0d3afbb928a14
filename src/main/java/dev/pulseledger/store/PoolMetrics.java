package dev.pulseledger.store;

import com.zaxxer.hikari.HikariDataSource;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.function.ToDoubleFunction;

/** Gauges of one connection pool: connections in use, idle, the maximum, and threads waiting for one. */
final class PoolMetrics {
    private PoolMetrics() {}

    static void bind(MeterRegistry registry, HikariDataSource pool, String poolName) {
        gauge(
                registry,
                pool,
                poolName,
                "active.connections",
                "Database connections lent out",
                bean -> bean.getHikariPoolMXBean().getActiveConnections());
        gauge(
                registry,
                pool,
                poolName,
                "idle.connections",
                "Open database connections waiting to be lent",
                bean -> bean.getHikariPoolMXBean().getIdleConnections());
        gauge(
                registry,
                pool,
                poolName,
                "max.connections",
                "The most database connections of this pool (from --db-pool-size)",
                HikariDataSource::getMaximumPoolSize);
        gauge(
                registry,
                pool,
                poolName,
                "pending.threads",
                "Threads waiting for a database connection",
                bean -> bean.getHikariPoolMXBean().getThreadsAwaitingConnection());
    }

    private static void gauge(
            MeterRegistry registry,
            HikariDataSource pool,
            String poolName,
            String name,
            String description,
            ToDoubleFunction<HikariDataSource> value) {
        Gauge.builder("pulseledger.db.pool." + name, pool, value)
                .description(description + ", per pool (main: spends and the rest; lookups: keys)")
                .tag("pool", poolName)
                .register(registry);
    }
}
