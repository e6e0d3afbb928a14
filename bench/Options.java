import java.nio.file.Path;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** Command-line options, with defaults that make one full run last about half an hour (5 rounds). */
record Options(
        int rounds,
        int seconds,
        int warmupSeconds,
        int caseWarmupSeconds,
        List<Integer> connections,
        List<String> stores,
        List<String> cases,
        int accounts,
        String pgHost,
        int pgPort,
        String pgUser,
        Path jar,
        Optional<Path> baselineJar,
        List<String> javaOptions,
        boolean profile,
        Path out,
        Optional<Path> docs,
        List<Integer> scaleAccounts,
        int scaleSpendings) {
    static final List<String> DEFAULT_CASES =
            List.of("live", "balance", "pulse", "spend-hot", "spend-spread", "naive", "locked",
                    "reserve-settle", "mixed");
    static final List<String> ALL_CASES =
            List.of("live", "balance", "pulse", "spend-hot", "spend-spread", "naive", "locked",
                    "reserve-settle", "mixed", "scale", "replica");

    static Options parse(String[] args) {
        Map<String, String> given = new LinkedHashMap<>();
        for (int i = 0; i < args.length; i++) {
            String arg = args[i];
            if (arg.equals("--help") || arg.equals("-h")) {
                System.out.println(usage());
                System.exit(0);
            }
            if (arg.equals("--profile")) {
                given.put("profile", "true");
                continue;
            }
            if (!arg.startsWith("--") || i + 1 >= args.length) {
                throw new IllegalArgumentException("bad argument " + arg + "\n" + usage());
            }
            given.put(arg.substring(2), args[++i]);
        }
        String stamp = LocalDateTime.now().format(DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss"));
        Options options = new Options(
                Integer.parseInt(given.getOrDefault("rounds", "5")),
                Integer.parseInt(given.getOrDefault("seconds", "10")),
                Integer.parseInt(given.getOrDefault("warmup-seconds", "5")),
                Integer.parseInt(given.getOrDefault("case-warmup-seconds", "5")),
                Arrays.stream(given.getOrDefault("connections", "64").split(","))
                        .map(Integer::parseInt)
                        .toList(),
                List.of(given.getOrDefault("stores", "sqlite,postgresql").split(",")),
                List.of(given.getOrDefault("cases", String.join(",", DEFAULT_CASES)).split(",")),
                Integer.parseInt(given.getOrDefault("accounts", "10000")),
                given.getOrDefault("pg-host", env("PGHOST", "127.0.0.1")),
                Integer.parseInt(given.getOrDefault("pg-port", env("PGPORT", "5432"))),
                given.getOrDefault("pg-user", env("PGUSER", "postgres")),
                Path.of(given.getOrDefault("jar", "target/pulseledger.jar")),
                Optional.ofNullable(given.get("baseline-jar")).map(Path::of),
                splitOptions(given.getOrDefault("java-options", env("BENCH_JAVA_OPTIONS", ""))),
                given.containsKey("profile"),
                Path.of(given.getOrDefault("out", "bench/out/" + stamp)),
                Optional.of(given.getOrDefault("docs", "docs/PERFORMANCE.md"))
                        .filter(docs -> !docs.equals("none"))
                        .map(Path::of),
                Arrays.stream(given.getOrDefault("scale-accounts", "10000,100000,1000000").split(","))
                        .map(Integer::parseInt)
                        .toList(),
                Integer.parseInt(given.getOrDefault("scale-spendings", "10")));
        given.keySet().removeAll(List.of(
                "rounds", "seconds", "warmup-seconds", "case-warmup-seconds", "connections", "stores", "cases", "accounts",
                "pg-host", "pg-port", "pg-user", "jar", "baseline-jar", "java-options", "profile", "out", "docs",
                "scale-accounts", "scale-spendings"));
        if (!given.isEmpty()) {
            throw new IllegalArgumentException("unknown option(s) " + given.keySet() + "\n" + usage());
        }
        if (!List.of("sqlite", "postgresql").containsAll(options.stores())
                || !ALL_CASES.containsAll(options.cases())) {
            throw new IllegalArgumentException("unknown store or case\n" + usage());
        }
        if (options.rounds() < 1 || options.rounds() > 99) {
            throw new IllegalArgumentException("--rounds is 1 to 99\n" + usage());
        }
        if (options.caseWarmupSeconds() < 0) {
            throw new IllegalArgumentException("--case-warmup-seconds is 0 or more\n" + usage());
        }
        if (options.scaleSpendings() < 1 || options.scaleSpendings() > 999
                || !options.scaleAccounts().stream().sorted().toList().equals(options.scaleAccounts())) {
            throw new IllegalArgumentException("--scale-spendings is 1 to 999; --scale-accounts grows\n" + usage());
        }
        return options;
    }

    static String usage() {
        return """
                bench/run.sh [options]
                  --rounds N           rounds (default 5): each round measures every case once, a case and
                                       its yardstick one after the other (spends and naive pgbench, reads and
                                       GET /health/live, reserve+settle and spends, this jar and the baseline
                                       jar), each after its own unmeasured load; every figure and ratio is
                                       given as the median of the rounds with its min–max
                  --seconds N          length of each measured case (default 10)
                  --warmup-seconds N   JIT warm-up per store before measuring (default 5)
                  --case-warmup-seconds N  the same load, unmeasured, just before each case (default 5): a
                                       switch of request kind makes the JIT compile the request path again
                  --connections LIST   client counts for the spend and pgbench cases (default 64; 8,32,64 for
                                       the curve, three times as long)
                  --stores LIST        sqlite,postgresql (default both)
                  --cases LIST         live,balance,pulse,spend-hot,spend-spread,naive,locked,reserve-settle,mixed
                                       (default all of them); reserve-settle: reserve 10 then settle 7 on the
                                       hot account and over the spread accounts, in completed pairs (two
                                       requests) per second, with its ratio to the plain spends on the same
                                       accounts at the same connections in the same round;
                                       mixed: an LLM provider's traffic over 10,000 accounts of its own
                                       (60 % reserve+settle of a random amount, 25 % spends, 10 % balance
                                       reads, 5 % reverts of the caller's own spendings), per operation;
                                       locked (PostgreSQL): 7 accounts' spends before and while an
                                       outside session holds an 8th account's row lock;
                                       scale (PostgreSQL, on its own: see --scale-accounts; ~25 min at 1M);
                                       replica (on its own, ~6 min at 5 rounds): a primary and a streaming
                                       replica made with initdb and pg_basebackup; pulse, incidents, uptime
                                       and usage read on 2 nodes without and 2 nodes with
                                       --read-database-url, with the primary's CPU per read
                  --accounts N         accounts of the spread case (default 10000)
                  --pg-host H --pg-port P --pg-user U   PostgreSQL server (default PGHOST/PGPORT/PGUSER
                                       or 127.0.0.1:5432 postgres); a fresh database is made and dropped
                  --jar PATH           the server jar (default target/pulseledger.jar)
                  --baseline-jar PATH  another build to compare with: its own server and database, the same
                                       seed; each spend and reserve+settle case runs on this jar and then on
                                       the baseline in every round; the report gives the median of the
                                       rounds' ratios (e.g. the jar of an older commit)
                  --java-options "..." JVM options of the server (default $BENCH_JAVA_OPTIONS, else none);
                                       bench/run.sh passes the README's
                  --profile            record a JFR profile of the server into the output folder
                  --out DIR            output folder (default bench/out/<timestamp>)
                  --docs FILE|none     where the run's table also goes, in place of the run before it, between
                                       the file's two markers (default docs/PERFORMANCE.md; none: only --out)
                  --scale-accounts LIST  sizes of the scale case, a database each, measured in turn in 3 rounds
                                       (default 10000,100000,1000000)
                  --scale-spendings N  spendings per account in the scale case (default 10: 10,000,000 at 1M)""";
    }

    boolean wants(String name) {
        return cases.contains(name);
    }

    private static String env(String name, String fallback) {
        String value = System.getenv(name);
        return value == null || value.isBlank() ? fallback : value;
    }

    private static List<String> splitOptions(String text) {
        return text.isBlank() ? List.of() : List.of(text.trim().split("\\s+"));
    }
}
