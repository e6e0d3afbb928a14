package dev.pulseledger.metrics;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.binder.jvm.JvmMemoryMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmThreadMetrics;
import io.micrometer.core.instrument.binder.system.ProcessorMetrics;
import io.micrometer.core.instrument.config.MeterFilter;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;

/**
 * The registry behind {@code /metrics}: JVM metrics, Prometheus's standard {@code process_*} metrics
 * and the build, named so that {@code promtool check metrics} accepts them. docs/METRICS.md lists
 * every metric. The garbage collection binder holds listeners, so Application binds and closes it.
 */
public final class NodeMetrics {
    private NodeMetrics() {}

    /** The registry, its {@code pulseledger_build_info} naming {@code version}. */
    public static PrometheusMeterRegistry create(String version) {
        PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
        // ProcessorMetrics' CPU time is in nanoseconds and its CPU count ends in _count, which
        // Prometheus reserves for histograms; ProcessMetrics gives the standard process_cpu_seconds_total.
        registry.config()
                .meterFilter(MeterFilter.denyNameStartsWith("process.cpu.time"))
                .meterFilter(MeterFilter.denyNameStartsWith("system.cpu.count"));
        new JvmMemoryMetrics().bindTo(registry);
        new JvmThreadMetrics().bindTo(registry);
        new ProcessorMetrics().bindTo(registry);
        new ProcessMetrics().bindTo(registry);
        Gauge.builder("pulseledger.build.info", () -> 1)
                .description("Always 1; the version label names the build this node runs")
                .tag("version", version)
                .tag("java_version", Runtime.version().toString())
                .register(registry);
        return registry;
    }
}
