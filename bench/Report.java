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
    String machine = "";
    String loadAfter = "";
    boolean failed;

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
                result.batches());
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
                + " CPU µs/req server + db | statuses | batches: count × mean size, mean ms |\n");
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
                    r.batches()));
        }
        md.append("\nTargets (issue 4):\n\n");
        int most = options.connections().stream().max(Integer::compare).orElse(0);
        for (String store : options.stores()) {
            ratio(md, store, "GET balance", "GET /health/live", 0.7);
            ratio(md, store, "GET pulse (50 services)", "GET /health/live", 0.6);
        }
        find("postgresql", "spend, hot account", most).ifPresent(spend -> find("postgresql", "pgbench naive, hot account", most)
                .ifPresent(naive -> {
                    double times = spend.requestsPerSecond() / naive.requestsPerSecond();
                    md.append(String.format(
                            Locale.ROOT,
                            "- PostgreSQL hot account at %d connections: %.0f spends/s = %.1f× naive pgbench (%.0f/s),"
                                    + " p99 %.1f ms: %s (target ≥ 10×, p99 ≤ 20 ms)%n",
                            most,
                            spend.requestsPerSecond(),
                            times,
                            naive.requestsPerSecond(),
                            spend.p99Millis(),
                            verdict(times >= 10 && spend.p99Millis() <= 20)));
                }));
        find("postgresql", "spend, " + options.accounts() + " accounts", most).ifPresent(spend -> find(
                        "postgresql", "pgbench naive, " + options.accounts() + " accounts", most)
                .ifPresent(naive -> md.append(String.format(
                        Locale.ROOT,
                        "- PostgreSQL %d accounts at %d connections: %.1f× naive pgbench (for information)%n",
                        options.accounts(),
                        most,
                        spend.requestsPerSecond() / naive.requestsPerSecond()))));
        results.stream()
                .filter(r -> r.store().equals("sqlite") && r.name().startsWith("spend"))
                .max((a, b) -> Double.compare(a.requestsPerSecond(), b.requestsPerSecond()))
                .ifPresent(best -> md.append(String.format(
                        Locale.ROOT,
                        "- SQLite durable spends/s (best case: %s, %d connections): %.0f: %s (target ≥ 15000)%n",
                        best.name(),
                        best.connections(),
                        best.requestsPerSecond(),
                        verdict(best.requestsPerSecond() >= 15_000))));
        peakRssKb.forEach((store, kb) -> md.append(String.format(
                Locale.ROOT,
                "- Peak server RSS on %s (VmHWM): %.0f MB: %s (target ≤ 300 MB)%n",
                store,
                kb / Bench.MB,
                verdict(kb / Bench.MB <= 300))));
        targets.forEach(target -> md.append("- PostgreSQL, one account locked: ").append(target).append('\n'));
        reserveSettleRatios(md, options);
        md.append("\nChecks after the run:\n\n");
        checks.forEach(check -> md.append("- ").append(check).append('\n'));
        return md.toString();
    }

    /** The reserve-then-settle case's name: its req/s column counts units of work (two requests each). */
    static final String RESERVE_SETTLE = "reserve then settle (units of 2 requests)";

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

    private void ratio(StringBuilder md, String store, String name, String base, double target) {
        find(store, name, 0).ifPresent(r -> find(store, base, 0).ifPresent(b -> {
            double ratio = r.requestsPerSecond() / b.requestsPerSecond();
            md.append(String.format(
                    Locale.ROOT,
                    "- %s: %s = %.2f× %s: %s (target ≥ %.1f×)%n",
                    store,
                    name,
                    ratio,
                    base,
                    verdict(ratio >= target),
                    target));
        }));
    }

    private static String cpuText(Result r) {
        String server = Double.isNaN(r.serverCpuMicros()) ? "–" : String.format(Locale.ROOT, "%.0f", r.serverCpuMicros());
        String database =
                Double.isNaN(r.databaseCpuMicros()) ? "–" : String.format(Locale.ROOT, "%.0f", r.databaseCpuMicros());
        return server + " + " + database;
    }

    private static String verdict(boolean met) {
        return met ? "met" : "NOT met";
    }
}
