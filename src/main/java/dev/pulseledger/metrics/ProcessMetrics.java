package dev.pulseledger.metrics;

import com.sun.management.OperatingSystemMXBean;
import com.sun.management.UnixOperatingSystemMXBean;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.MeterBinder;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Prometheus's standard process metrics ({@code process_cpu_seconds_total}, {@code
 * process_resident_memory_bytes}, {@code process_open_fds}, ...), with the names and units every
 * dashboard for a Prometheus client expects. Memory comes from /proc on Linux, and is absent elsewhere.
 */
final class ProcessMetrics implements MeterBinder {
    private static final Path STATM = Path.of("/proc/self/statm");
    /** Linux's page size on every platform the JDK ships for; statm counts in pages. */
    private static final long PAGE_BYTES = 4096;

    @Override
    public void bindTo(MeterRegistry registry) {
        OperatingSystemMXBean os = (OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
        FunctionCounter.builder("process.cpu", os, bean -> bean.getProcessCpuTime() / 1e9)
                .baseUnit("seconds")
                .description("Total user and system CPU time spent by the process")
                .register(registry);
        Gauge.builder(
                        "process.start.time",
                        () -> ManagementFactory.getRuntimeMXBean().getStartTime() / 1000.0)
                .baseUnit("seconds")
                .description("Start time of the process since the Unix epoch")
                .register(registry);
        if (os instanceof UnixOperatingSystemMXBean unix) {
            Gauge.builder("process.open.fds", unix, UnixOperatingSystemMXBean::getOpenFileDescriptorCount)
                    .description("Open file descriptors, sockets included")
                    .register(registry);
            Gauge.builder("process.max.fds", unix, UnixOperatingSystemMXBean::getMaxFileDescriptorCount)
                    .description("The most file descriptors the process may open")
                    .register(registry);
        }
        if (Files.isReadable(STATM)) {
            Gauge.builder("process.virtual.memory", () -> statmPages(0) * PAGE_BYTES)
                    .baseUnit("bytes")
                    .description("Virtual memory size of the process")
                    .register(registry);
            Gauge.builder("process.resident.memory", () -> statmPages(1) * PAGE_BYTES)
                    .baseUnit("bytes")
                    .description("Resident memory size of the process")
                    .register(registry);
        }
    }

    /** One field of /proc/self/statm (0: total program size, 1: resident set), in pages; NaN if unreadable. */
    private static double statmPages(int field) {
        try {
            return Long.parseLong(Files.readString(STATM).trim().split("\\s+")[field]);
        } catch (IOException | RuntimeException e) {
            return Double.NaN;
        }
    }
}
