import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/** Every store's results and checks, rendered as Markdown. */
final class Report {
    final List<Result> results = new ArrayList<>();
    final List<String> checks = new ArrayList<>();
    final List<String> targets = new ArrayList<>();
    final Map<String, Long> peakRssKb = new LinkedHashMap<>();
    final Map<Integer, Double> scaleVerifySeconds = new LinkedHashMap<>();
    final Map<Integer, ScaleSize> scaleSizes = new LinkedHashMap<>();
    /** The scale case's spend p50 at the largest size over the smallest's, round by round. */
    final List<Double> scaleSpendP50Ratios = new ArrayList<>();
    String machine = "";
    String loadAfter = "";
    boolean failed;

    /** One database of the scale case: its spendings, how long the seed took and its size on disk. */
    record ScaleSize(long spendings, double seedSeconds, long bytes) {}

    void add(Result result) {
        results.add(result);
        System.out.printf(
                Locale.ROOT,
                "  %-10s %-26s c=%-3d %8.0f req/s  p50 %6.2f ms  p99 %7.2f ms  rss %4.0f MB  cpu/req %s  %s %s%n",
                result.store(),
                result.name(),
                result.connections(),
                result.requestsPerSecond(),
                result.p50Millis(),
                result.p99Millis(),
                result.rssKb() / Bench.MB,
                cpuText(result),
                result.statuses(),
                costText(result));
    }

    /** A figure measured against its target, listed with the targets (it does not fail the run). */
    void target(String text) {
        targets.add(text);
        System.out.println("  " + text);
    }

    void check(boolean ok, String text) {
        checks.add((ok ? "PASS  " : "FAIL  ") + text);
        failed |= !ok;
        System.out.println("  " + (ok ? "PASS  " : "FAIL  ") + text);
    }

    boolean checksPassed() {
        return !failed;
    }

    Optional<Result> find(String store, String name, int connections) {
        return results.stream()
                .filter(r -> r.store().equals(store) && r.name().equals(name))
                .filter(r -> connections == 0 || r.connections() == connections)
                .findFirst();
    }

    String render(Options options) {
        StringBuilder md = new StringBuilder();
        md.append(machine).append("Load average at the end: ").append(loadAfter).append("\n\n");
        md.append("| store | case | connections | req/s | p50 ms | p99 ms | server RSS MB |"
                + " CPU µs/req server + db | statuses | batches: count × mean size, mean ms (longest in the 2 min before);"
                + " files pg_wal grew by |\n");
        md.append("|---|---|---:|---:|---:|---:|---:|---:|---|---|\n");
        for (Result r : results) {
            md.append(String.format(
                    Locale.ROOT,
                    "| %s | %s | %d | %.0f | %.2f | %.2f | %s | %s | %s | %s |%n",
                    r.store(),
                    r.name(),
                    r.connections(),
                    r.requestsPerSecond(),
                    r.p50Millis(),
                    r.p99Millis(),
                    r.rssKb() == 0 ? "–" : String.format(Locale.ROOT, "%.0f", r.rssKb() / Bench.MB),
                    cpuText(r),
                    r.statuses(),
                    costText(r)));
        }
        md.append("\nTargets (issue 10), as ratios within this run:\n\n");
        int most = options.connections().stream().max(Integer::compare).orElse(0);
        String spread = "spend, " + options.accounts() + " accounts";
        versusNaive(md, "spend, hot account", "pgbench naive, hot account", most, 15);
        versusNaive(md, spread, "pgbench naive, " + options.accounts() + " accounts", most, 2);
        for (Result r : results) {
            if (r.name().startsWith("spend") && r.connections() == most && !r.name().contains("(baseline jar)")
                    && !r.store().equals("scale")) {
                md.append(String.format(
                        Locale.ROOT,
                        "- %s: %s, p99 at %d connections %.1f ms: %s (target ≤ 20 ms)%s%n",
                        r.store(),
                        r.name(),
                        most,
                        r.p99Millis(),
                        verdict(r.p99Millis() <= 20),
                        walFilesMade(r) > 0
                                ? "; meanwhile PostgreSQL made " + walFilesMade(r) + " new WAL files (docs/PERFORMANCE.md,"
                                        + " session 14)"
                                : ""));
            }
        }
        ratio(md, "sqlite", "spend, hot account", most, 0.4);
        for (String store : options.stores()) {
            ratio(md, store, "GET balance", 0, 0.7);
            ratio(md, store, PULSE, 0, 0.7);
            ratio(md, store, PULSE_GZIP, 0, 0.7);
        }
        peakRssKb.forEach((who, kb) -> md.append(String.format(
                Locale.ROOT,
                "- Peak server RSS, %s (VmHWM): %.0f MB%s%n",
                who,
                kb / Bench.MB,
                who.contains("(") ? " (for information)" : ": " + verdict(kb / Bench.MB <= 256) + " (target ≤ 256 MB)")));
        List<Result> scaleSpends = results.stream()
                .filter(r -> r.store().equals("scale") && r.name().startsWith("spend"))
                .toList();
        if (scaleSpends.size() >= 2) {
            Result small = scaleSpends.getFirst();
            Result large = scaleSpends.getLast();
            double times = large.p50Millis() / small.p50Millis();
            md.append(String.format(
                    Locale.ROOT,
                    "- Spend p50 at the largest size %.2f ms = %.2f× the smallest's %.2f ms: %s (target ≤ 1.2×)%n",
                    large.p50Millis(),
                    times,
                    small.p50Millis(),
                    verdict(times <= 1.2)));
        }
        if (scaleSpends.size() >= 2) {
            double[] sorted = scaleSpendP50Ratios.stream().mapToDouble(Double::doubleValue).sorted().toArray();
            md.append(String.format(
                    Locale.ROOT,
                    "- The same, round by round (each pair measured about a minute apart): %s; median %.2f×%n",
                    scaleSpendP50Ratios.stream()
                            .map(ratio -> String.format(Locale.ROOT, "%.2f×", ratio))
                            .collect(java.util.stream.Collectors.joining(", ")),
                    sorted[sorted.length / 2]));
        }
        scaleSizes.forEach((accounts, size) -> md.append(String.format(
                Locale.ROOT,
                "- Scale, %,d accounts and %,d spendings: seeded in %.0f s, %,d MB on disk, `verify` %.1f s"
                        + " (for information)%n",
                accounts,
                size.spendings(),
                size.seedSeconds(),
                size.bytes() >> 20,
                scaleVerifySeconds.getOrDefault(accounts, Double.NaN))));
        if (options.baselineJar().isPresent()) {
            md.append("\nAgainst the baseline jar (").append(options.baselineJar().get().getFileName())
                    .append("), same run, each case measured on both back to back (issue 9: no regression):\n\n");
            for (Result r : results) {
                find(r.store(), r.name() + " (baseline jar)", r.connections()).ifPresent(base -> {
                    double times = r.requestsPerSecond() / base.requestsPerSecond();
                    md.append(String.format(
                            Locale.ROOT,
                            "- %s: %s at %d connections: %.0f/s against %.0f/s = %.2f× (p99 %.1f against %.1f ms,"
                                    + " CPU %s against %s µs/spend): %s%n",
                            r.store(),
                            r.name(),
                            r.connections(),
                            r.requestsPerSecond(),
                            base.requestsPerSecond(),
                            times,
                            r.p99Millis(),
                            base.p99Millis(),
                            cpuText(r),
                            cpuText(base),
                            times >= 1 ? "no regression" : "REGRESSION"));
                });
            }
        }
        targets.forEach(target -> md.append("- PostgreSQL, one account locked: ").append(target).append('\n'));
        reserveSettleRatios(md, options);
        md.append("\nChecks after the run:\n\n");
        checks.forEach(check -> md.append("- ").append(check).append('\n'));
        return md.toString();
    }

    /** The reserve-then-settle case's name: its req/s column counts units of work (two requests each). */
    static final String RESERVE_SETTLE = "reserve then settle (units of 2 requests)";
    static final String PULSE = "GET pulse (50 services)";
    /** The same feed to a client that takes gzip (Accept-Encoding: gzip), as browsers and most HTTP libraries do. */
    static final String PULSE_GZIP = "GET pulse (50 services), gzip";

    private void reserveSettleRatios(StringBuilder md, Options options) {
        for (String store : options.stores()) {
            for (int connections : options.connections()) {
                find(store, RESERVE_SETTLE, connections).ifPresent(unit -> find(store, "spend, hot account", connections)
                        .ifPresent(spend -> md.append(String.format(
                                Locale.ROOT,
                                "- %s at %d connections: %.0f reserve+settle units/s = %.2f× plain spends/s (%.0f)"
                                        + " (for information: a unit is two requests)%n",
                                store,
                                connections,
                                unit.requestsPerSecond(),
                                unit.requestsPerSecond() / spend.requestsPerSecond(),
                                spend.requestsPerSecond()))));
            }
        }
    }

    /** A case's rate against GET /health/live on the same store. */
    private void ratio(StringBuilder md, String store, String name, int connections, double target) {
        find(store, name, connections).ifPresent(r -> find(store, "GET /health/live", 0).ifPresent(b -> {
            double ratio = r.requestsPerSecond() / b.requestsPerSecond();
            md.append(String.format(
                    Locale.ROOT,
                    "- %s: %s%s = %.2f× GET /health/live: %s (target ≥ %.1f×)%n",
                    store,
                    name,
                    connections == 0 ? "" : " at " + connections + " connections",
                    ratio,
                    verdict(ratio >= target),
                    target));
        }));
    }

    /** A PostgreSQL spend case against pgbench's naive design on the same accounts and connections. */
    private void versusNaive(StringBuilder md, String name, String naiveName, int connections, double target) {
        find("postgresql", name, connections).ifPresent(spend -> find("postgresql", naiveName, connections)
                .ifPresent(naive -> {
                    double times = spend.requestsPerSecond() / naive.requestsPerSecond();
                    md.append(String.format(
                            Locale.ROOT,
                            "- postgresql: %s at %d connections: %.0f spends/s = %.2f× naive pgbench (%.0f/s): %s"
                                    + " (target ≥ %.0f×)%n",
                            name,
                            connections,
                            spend.requestsPerSecond(),
                            times,
                            naive.requestsPerSecond(),
                            verdict(times >= target),
                            target));
                }));
    }

    private static String cpuText(Result r) {
        String server = Double.isNaN(r.serverCpuMicros()) ? "–" : String.format(Locale.ROOT, "%.0f", r.serverCpuMicros());
        String database =
                Double.isNaN(r.databaseCpuMicros()) ? "–" : String.format(Locale.ROOT, "%.0f", r.databaseCpuMicros());
        return server + " + " + database;
    }

    /** The batches column: the group commit's batches, then by how many files pg_wal grew, where measured. */
    private static String costText(Result r) {
        String walFiles = WalMeter.grownText(r.walFilesMade());
        return r.batches().isEmpty() || walFiles.isEmpty() ? r.batches() + walFiles : r.batches() + "; " + walFiles;
    }

    private static long walFilesMade(Result r) {
        return r.walFilesMade().orElse(0);
    }

    private static String verdict(boolean met) {
        return met ? "met" : "NOT met";
    }
}
