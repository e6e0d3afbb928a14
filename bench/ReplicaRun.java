import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.OptionalLong;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * The replica case (issue 44, CONTRACT §18): a PostgreSQL primary with a streaming replica of its own
 * ({@link ReplicaCluster}), two nodes that read everything from the primary and two that send the reads
 * that may be a moment old to the replica ({@code --read-database-url}), all on one database. In each round
 * every read is measured on both pairs, one right after the other (the order flips each round), both nodes
 * of a pair loaded at once; the figure that matters is the primary's CPU per read (its postmaster and every
 * process it started, from /proc), with the replica's beside it.
 */
final class ReplicaRun {
    private static final int INCIDENTS = 40;
    private static final String PRIMARY_ONLY = "2 nodes, primary only";
    private static final String WITH_REPLICA = "2 nodes + replica";

    /** One read the case measures. */
    private record Read(String name, String path, boolean spreadKeys) {}

    private static final List<Read> READS = List.of(
            new Read("GET pulse", "/api/pulse", false),
            new Read("GET incidents, page of 20", "/api/pulse/incidents?limit=20", false),
            new Read("GET uptime, 90 days", "/api/pulse/services/svc-1/uptime?days=90", false),
            new Read("GET usage by day", "/api/tokens/usage?granularity=day", true));

    private final Options options;
    private final Report report;
    private final Path folder;
    private final Map<String, List<double[]>> primaryCpuByRead = new LinkedHashMap<>();
    private boolean everyReadAnswered = true;

    ReplicaRun(Options options, Report report) {
        this.options = options;
        this.report = report;
        this.folder = options.out().resolve("replica");
    }

    void run() throws Exception {
        Files.createDirectories(folder);
        System.out.println("== postgresql with a read replica");
        try (ReplicaCluster cluster =
                ReplicaCluster.start(folder.resolve("postgres"))) {
            Seed seed = Seed.create(cluster.primaryUrl(), options.accounts(), folder, true);
            Map<String, List<Server>> pairs = new LinkedHashMap<>();
            try {
                pairs.put(PRIMARY_ONLY, List.of(node(cluster, "primary-1", List.of()), node(cluster, "primary-2", List.of())));
                List<String> replicaFlags = List.of("--read-database-url", cluster.replicaUrl());
                pairs.put(WITH_REPLICA, List.of(node(cluster, "replica-1", replicaFlags), node(cluster, "replica-2", replicaFlags)));
                prepare(pairs.get(PRIMARY_ONLY).getFirst(), seed, cluster);
                for (List<Server> pair : pairs.values()) {
                    for (Read read : READS) {
                        load(pair, read, seed, options.warmupSeconds());
                    }
                }
                for (int round = 1; round <= options.rounds(); round++) {
                    System.out.println("  -- replica, round " + round + " of " + options.rounds());
                    List<String> order = new ArrayList<>(pairs.keySet());
                    if (round % 2 == 0) {
                        order = order.reversed();
                    }
                    for (Read read : READS) {
                        double[] cpu = new double[2];
                        for (String side : order) {
                            cpu[side.equals(WITH_REPLICA) ? 1 : 0] =
                                    measure(pairs.get(side), side, read, seed, cluster, round);
                        }
                        primaryCpuByRead.computeIfAbsent(read.name(), name -> new ArrayList<>()).add(cpu);
                    }
                }
                summarise(pairs.get(WITH_REPLICA));
            } finally {
                for (List<Server> pair : pairs.values()) {
                    for (Server server : pair) {
                        server.close();
                    }
                }
            }
        }
    }

    private Server node(ReplicaCluster cluster, String name, List<String> flags) throws Exception {
        return Server.start(options, options.jar(), cluster.primaryUrl(), folder, name, flags);
    }

    /** Services, incidents and spendings to read, then the replica caught up with all of it. */
    private void prepare(Server server, Seed seed, ReplicaCluster cluster) throws Exception {
        server.putServices();
        for (int i = 1; i <= INCIDENTS; i++) {
            server.openIncident("Bench incident " + i, "svc-" + (1 + i % Bench.SERVICES));
        }
        Wrk.run(folder.resolve("wrk.log"), "bench/wrk.lua", server.port(), "POST", "/api/tokens/spend/1",
                "@" + seed.spreadKeys().toAbsolutePath(), 32, Math.max(5, options.warmupSeconds()), false);
        cluster.awaitCaughtUp(Duration.ofSeconds(120));
    }

    /** Both nodes of a pair under the read at once, after the same load unmeasured; returns the primary's CPU µs per read. */
    private double measure(List<Server> pair, String side, Read read, Seed seed, ReplicaCluster cluster, int round)
            throws Exception {
        if (options.caseWarmupSeconds() > 0) {
            load(pair, read, seed, options.caseWarmupSeconds());
        }
        long primaryBefore = cluster.primaryTicks();
        long replicaBefore = cluster.replicaTicks();
        long serversBefore = serverTicks(pair);
        Wrk.Run run = Wrk.Run.together(load(pair, read, seed, options.seconds()));
        double reads = run.requests();
        everyReadAnswered &= run.errors() == 0 && run.count(200) == run.requests();
        double primaryMicros = (cluster.primaryTicks() - primaryBefore) * 10_000 / reads;
        double replicaMicros = (cluster.replicaTicks() - replicaBefore) * 10_000 / reads;
        report.add(new Result(
                "postgresql",
                read.name() + ", " + side,
                connectionsPerNode() * pair.size(),
                run.requestsPerSecond(),
                run.p50Micros() / 1000.0,
                run.p99Micros() / 1000.0,
                pair.getFirst().procStatusKb("VmRSS"),
                (serverTicks(pair) - serversBefore) * 10_000 / reads,
                primaryMicros,
                run.statusText(),
                String.format(Locale.ROOT, "replica: %.0f µs CPU per read", replicaMicros),
                OptionalLong.empty(),
                round));
        return primaryMicros;
    }

    private List<Wrk.Run> load(List<Server> pair, Read read, Seed seed, int seconds) throws Exception {
        String key = read.spreadKeys() ? "@" + seed.spreadKeys().toAbsolutePath() : seed.hotKey();
        try (ExecutorService both = Executors.newVirtualThreadPerTaskExecutor()) {
            List<Future<Wrk.Run>> runs = new ArrayList<>();
            for (Server server : pair) {
                Callable<Wrk.Run> run = () -> Wrk.run(folder.resolve("wrk.log"), "bench/wrk.lua", server.port(), "GET",
                        read.path(), key, connectionsPerNode(), seconds, true);
                runs.add(both.submit(run));
            }
            List<Wrk.Run> done = new ArrayList<>();
            for (Future<Wrk.Run> run : runs) {
                done.add(run.get());
            }
            return done;
        }
    }

    private int connectionsPerNode() {
        return Math.max(1, options.connections().stream().max(Integer::compare).orElse(64) / 2);
    }

    private static long serverTicks(List<Server> pair) {
        return pair.stream().mapToLong(server -> Cpu.ticksOrZero(server.pid())).sum();
    }

    /** The primary's CPU per read with the replica over without it, round by round; and the replica served. */
    private void summarise(List<Server> replicaPair) throws Exception {
        for (Map.Entry<String, List<double[]>> read : primaryCpuByRead.entrySet()) {
            double[] ratios = read.getValue().stream().mapToDouble(cpu -> cpu[1] / cpu[0]).toArray();
            report.target(String.format(
                    Locale.ROOT,
                    "PostgreSQL with a read replica, %s: the primary's CPU per read, 2 nodes with a replica over 2 without: %s",
                    read.getKey(),
                    Report.Spread.of(ratios).times()));
        }
        for (Server server : replicaPair) {
            double all = server.metricSum("pulseledger_replica_reads_total{");
            double primary = server.metricSum("pulseledger_replica_reads_total{target=\"primary\"");
            report.check(all - primary > 0, String.format(
                    Locale.ROOT,
                    "replica case: a node with --read-database-url served reads from the replica (%.0f of %.0f)",
                    all - primary,
                    all));
        }
        report.check(everyReadAnswered, "replica case: every read answered 200 on both pairs, no socket errors");
    }
}
