import java.util.ArrayList;
import java.util.Arrays;
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
                "  %-10s %-38s c=%-3d %s%8.0f req/s  p50 %6.2f ms  p99 %7.2f ms  rss %4.0f MB  cpu/req %s  %s %s%n",
                result.store(),
                result.name(),
                result.connections(),
                result.round() > 0 ? "r" + result.round() + " " : "",
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

    /** One case's rounds (or its single measurement), in the order they ran. */
    record Summary(String store, String name, int connections, List<Result> runs) {
        double medianRate() {
            return median(runs.stream().mapToDouble(Result::requestsPerSecond).toArray());
        }

        double medianP50() {
            return median(runs.stream().mapToDouble(Result::p50Millis).toArray());
        }

        double medianP99() {
            return median(runs.stream().mapToDouble(Result::p99Millis).toArray());
        }

        double maxP99() {
            return runs.stream().mapToDouble(Result::p99Millis).max().orElse(Double.NaN);
        }

        /** The round whose rate is the median (the lower of the middle two): its batches and WAL files are shown. */
        Result middle() {
            List<Result> sorted = runs.stream()
                    .sorted(java.util.Comparator.comparingDouble(Result::requestsPerSecond))
                    .toList();
            return sorted.get((sorted.size() - 1) / 2);
        }

        String rateText() {
            double[] rates = runs.stream().mapToDouble(Result::requestsPerSecond).toArray();
            return runs.size() == 1
                    ? String.format(Locale.ROOT, "%.0f", rates[0])
                    : String.format(Locale.ROOT, "%.0f (%.0f–%.0f)", median(rates),
                            Arrays.stream(rates).min().orElse(0), Arrays.stream(rates).max().orElse(0));
        }

        /** Each round's statuses added up ("201:…", "2xx:…", "N transactions"). */
        String statusesText() {
            Map<String, Long> sums = new LinkedHashMap<>();
            List<String> other = new ArrayList<>();
            for (Result r : runs) {
                for (String part : r.statuses().split(",? ")) {
                    int colon = part.lastIndexOf(':');
                    if (part.matches("[0-9]+") || part.equals("transactions") || part.equals("requests")) {
                        continue;
                    }
                    if (colon > 0 && part.substring(colon + 1).matches("[0-9]+")) {
                        sums.merge(part.substring(0, colon), Long.parseLong(part.substring(colon + 1)), Long::sum);
                    } else if (!part.isBlank() && !other.contains(part)) {
                        other.add(part);
                    }
                }
                java.util.regex.Matcher count = java.util.regex.Pattern.compile("^([0-9]+) (transactions|requests)")
                        .matcher(r.statuses());
                if (count.find()) {
                    sums.merge(count.group(2), Long.parseLong(count.group(1)), Long::sum);
                }
            }
            StringBuilder text = new StringBuilder();
            sums.forEach((name, sum) -> text.append(name.equals("transactions") || name.equals("requests")
                    ? sum + " " + name + " " : name + ":" + sum + " "));
            other.forEach(part -> text.append(part).append(' '));
            return text.toString().trim();
        }
    }

    /** The figures of a set of rounds: median, min, max and how many. */
    record Spread(double median, double min, double max, int rounds) {
        static Spread of(double[] values) {
            return new Spread(Report.median(values), Arrays.stream(values).min().orElse(Double.NaN),
                    Arrays.stream(values).max().orElse(Double.NaN), values.length);
        }

        String times() {
            return rounds == 1
                    ? String.format(Locale.ROOT, "%.2f× (1 round)", median)
                    : String.format(Locale.ROOT, "median %.2f× (%.2f–%.2f, %d rounds)", median, min, max, rounds);
        }
    }

    static double median(double[] values) {
        if (values.length == 0) {
            return Double.NaN;
        }
        double[] sorted = values.clone();
        Arrays.sort(sorted);
        int middle = sorted.length / 2;
        return sorted.length % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
    }

    /** Every case's rounds, in the order the cases first ran. */
    List<Summary> summaries() {
        Map<String, Summary> byCase = new LinkedHashMap<>();
        for (Result r : results) {
            byCase.computeIfAbsent(r.store() + "\0" + r.name() + "\0" + r.connections(),
                    k -> new Summary(r.store(), r.name(), r.connections(), new ArrayList<>())).runs().add(r);
        }
        return List.copyOf(byCase.values());
    }

    Optional<Summary> find(String store, String name, int connections) {
        return summaries().stream()
                .filter(r -> r.store().equals(store) && r.name().equals(name))
                .filter(r -> connections == 0 || r.connections() == connections)
                .findFirst();
    }

    /**
     * The subject's rate over the yardstick's, round by round: only rounds both measured; a case measured
     * once (round 0) is set against every round of the other.
     */
    static Spread ratios(Summary subject, Summary yardstick) {
        List<Double> ratios = new ArrayList<>();
        for (Result s : subject.runs()) {
            for (Result y : yardstick.runs()) {
                if (s.round() == y.round() || s.round() == 0 || y.round() == 0) {
                    ratios.add(s.requestsPerSecond() / y.requestsPerSecond());
                }
            }
        }
        return Spread.of(ratios.stream().mapToDouble(Double::doubleValue).toArray());
    }

    String render(Options options) {
        StringBuilder md = new StringBuilder();
        md.append(machine).append("Load average at the end: ").append(loadAfter).append("\n\n");
        md.append("Each figure is the median of the rounds (req/s with its min–max); the ratios below are taken"
                + " round by round, a case against its yardstick measured in the same round, and given as the"
                + " median of the rounds with their min–max.\n\n");
        md.append("| store | case | connections | rounds | req/s median (min–max) | p50 ms | p99 ms (worst round) |"
                + " server RSS MB | CPU µs/req server + db | statuses, all rounds |"
                + " batches: count × mean size, mean ms (longest in the 2 min before); files pg_wal grew by"
                + " (median round) |\n");
        md.append("|---|---|---:|---:|---:|---:|---:|---:|---:|---|---|\n");
        for (Summary summary : summaries()) {
            Result middle = summary.middle();
            long rss = summary.runs().stream().mapToLong(Result::rssKb).max().orElse(0);
            md.append(String.format(
                    Locale.ROOT,
                    "| %s | %s | %d | %d | %s | %s | %s | %s | %s | %s | %s |%n",
                    summary.store(),
                    summary.name(),
                    summary.connections(),
                    summary.runs().size(),
                    summary.rateText(),
                    Double.isNaN(summary.medianP50()) ? "–" : String.format(Locale.ROOT, "%.2f", summary.medianP50()),
                    Double.isNaN(summary.medianP99())
                            ? "–"
                            : String.format(Locale.ROOT, "%.2f (%.2f)", summary.medianP99(), summary.maxP99()),
                    rss == 0 ? "–" : String.format(Locale.ROOT, "%.0f", rss / Bench.MB),
                    cpuText(middle),
                    summary.statusesText(),
                    costText(middle)));
        }
        md.append("\nTargets (issues 10, 44 and 46), as ratios within this run:\n\n");
        int most = options.connections().stream().max(Integer::compare).orElse(0);
        String spread = "spend, " + options.accounts() + " accounts";
        versusNaive(md, SPEND_HOT, "pgbench naive, hot account", most, 15);
        versusNaive(md, spread, "pgbench naive, " + options.accounts() + " accounts", most, 2);
        for (Summary r : summaries()) {
            if (r.name().startsWith("spend") && r.connections() == most && !r.name().contains(BASELINE)
                    && !r.store().equals("scale") && !r.name().contains("locked") && !r.name().contains("others")) {
                spendP99(md, r, most);
            }
        }
        ratio(md, "sqlite", SPEND_HOT, most, 0.4);
        for (String store : options.stores()) {
            ratio(md, store, BALANCE, 0, 0.7);
            ratio(md, store, PULSE, 0, 0.7);
            ratio(md, store, PULSE_GZIP, 0, 0.7);
        }
        reserveSettleRatios(md, options);
        mixed(md, options, most);
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
                    .append("), same run, each case measured on this jar and then on the baseline in every round;"
                            + " issue 38 asks each to be at least 0.97× the old:\n\n");
            for (Summary r : summaries()) {
                find(r.store(), r.name() + " " + BASELINE, r.connections()).ifPresent(base -> {
                    Spread times = ratios(r, base);
                    md.append(String.format(
                            Locale.ROOT,
                            "- %s: %s at %d connections: %.0f/s against %.0f/s (medians) = %s (p99 %.1f against"
                                    + " %.1f ms, CPU %s against %s µs/request): %s%n",
                            r.store(),
                            r.name(),
                            r.connections(),
                            r.medianRate(),
                            base.medianRate(),
                            times.times(),
                            r.medianP99(),
                            base.medianP99(),
                            cpuText(r.middle()),
                            cpuText(base.middle()),
                            times.median() >= 0.97 ? "met (≥ 0.97×)" : "NOT met (≥ 0.97×)"));
                });
            }
        }
        targets.forEach(target -> md.append("- ").append(target).append('\n'));
        md.append("\nChecks after the run:\n\n");
        checks.forEach(check -> md.append("- ").append(check).append('\n'));
        return md.toString();
    }

    static final String BASELINE = "(baseline jar)";
    static final String LIVE = "GET /health/live";
    static final String BALANCE = "GET balance";
    static final String SPEND_HOT = "spend, hot account";
    /** The reserve-then-settle cases' names: their req/s column counts completed pairs (two requests each). */
    static final String RESERVE_HOT = "reserve+settle pairs, hot account";
    static final String PULSE = "GET pulse (50 services)";
    /** The same feed to a client that takes gzip (Accept-Encoding: gzip), as browsers and most HTTP libraries do. */
    static final String PULSE_GZIP = "GET pulse (50 services), gzip";
    /** The mixed case as a whole: its req/s column counts operations (a pair is one). */
    static final String MIXED = "mixed: operations (pair = 1)";

    static String reserveSpread(int accounts) {
        return "reserve+settle pairs, " + accounts + " accounts";
    }

    static String mixedKind(MixedLoad.Kind kind) {
        return "mixed: " + kind.name().toLowerCase(Locale.ROOT) + (kind == MixedLoad.Kind.SETTLE ? " (= pairs)" : "");
    }

    private void spendP99(StringBuilder md, Summary r, int most) {
        long walFiles = r.runs().stream().mapToLong(Report::walFilesMade).sum();
        md.append(String.format(
                Locale.ROOT,
                "- %s: %s, p99 at %d connections %.1f ms (median of %d rounds; worst %.1f): %s (target ≤ 20 ms)%s%n",
                r.store(),
                r.name(),
                most,
                r.medianP99(),
                r.runs().size(),
                r.maxP99(),
                verdict(r.medianP99() <= 20),
                walFiles > 0
                        ? "; meanwhile PostgreSQL made " + walFiles + " new WAL files (docs/PERFORMANCE.md, session 14)"
                        : ""));
    }

    /** Issue 46: completed reserve→settle pairs per second against plain spends on the same accounts. */
    private void reserveSettleRatios(StringBuilder md, Options options) {
        for (String store : options.stores()) {
            for (int connections : options.connections()) {
                for (String[] pair : List.of(
                        new String[] {RESERVE_HOT, SPEND_HOT},
                        new String[] {reserveSpread(options.accounts()), "spend, " + options.accounts() + " accounts"})) {
                    find(store, pair[0], connections).ifPresent(pairs -> find(store, pair[1], connections)
                            .ifPresent(spends -> {
                                Spread times = ratios(pairs, spends);
                                md.append(String.format(
                                        Locale.ROOT,
                                        "- %s: %s at %d connections: %.0f pairs/s against %.0f spends/s (medians) ="
                                                + " %s: %s (target ≥ 0.45×)%n",
                                        store,
                                        pair[0],
                                        connections,
                                        pairs.medianRate(),
                                        spends.medianRate(),
                                        times.times(),
                                        verdict(times.median() >= 0.45)));
                            }));
                }
            }
        }
    }

    /** Issue 46's mixed case: each operation's rate and p99 (medians of the rounds). */
    private void mixed(StringBuilder md, Options options, int connections) {
        for (String store : options.stores()) {
            find(store, MIXED, connections).ifPresent(all -> {
                StringBuilder line = new StringBuilder(String.format(
                        Locale.ROOT, "- %s: mixed case at %d connections, %d rounds: %s operations/s;", store,
                        connections, all.runs().size(), all.rateText()));
                for (MixedLoad.Kind kind : MixedLoad.Kind.values()) {
                    find(store, mixedKind(kind), connections).ifPresent(one -> line.append(String.format(
                            Locale.ROOT, " %s %.0f/s p99 %.1f ms;", kind.name().toLowerCase(Locale.ROOT),
                            one.medianRate(), one.medianP99())));
                }
                find(store, mixedKind(MixedLoad.Kind.SPEND), connections).ifPresent(spends -> line.append(
                        " spend p99 " + verdict(spends.medianP99() <= 20) + " (target ≤ 20 ms)"));
                md.append(line).append('\n');
            });
        }
    }

    /** A case's rate against GET /health/live on the same store, round by round. */
    private void ratio(StringBuilder md, String store, String name, int connections, double target) {
        find(store, name, connections).ifPresent(r -> find(store, LIVE, 0).ifPresent(b -> {
            Spread times = ratios(r, b);
            md.append(String.format(
                    Locale.ROOT,
                    "- %s: %s%s = %s GET /health/live: %s (target ≥ %.1f×)%n",
                    store,
                    name,
                    connections == 0 ? "" : " at " + connections + " connections",
                    times.times(),
                    verdict(times.median() >= target),
                    target));
        }));
    }

    /** A PostgreSQL spend case against pgbench's naive design on the same accounts and connections. */
    private void versusNaive(StringBuilder md, String name, String naiveName, int connections, double target) {
        find("postgresql", name, connections).ifPresent(spend -> find("postgresql", naiveName, connections)
                .ifPresent(naive -> {
                    Spread times = ratios(spend, naive);
                    md.append(String.format(
                            Locale.ROOT,
                            "- postgresql: %s at %d connections: %.0f spends/s against naive pgbench's %.0f/s"
                                    + " (medians) = %s: %s (target ≥ %.0f×)%n",
                            name,
                            connections,
                            spend.medianRate(),
                            naive.medianRate(),
                            times.times(),
                            verdict(times.median() >= target),
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
