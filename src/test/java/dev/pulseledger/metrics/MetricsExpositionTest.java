package dev.pulseledger.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.pulseledger.support.ExternalTool;
import dev.pulseledger.support.Fixtures;
import dev.pulseledger.support.TestNode;
import dev.pulseledger.support.TestStore;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * What /metrics exposes passes Prometheus's own linter, carries what operators alert on, and is
 * what docs/METRICS.md, the alert rules and the Grafana dashboard talk about.
 */
class MetricsExpositionTest {
    private static final String INSTALL = "apt-get install prometheus (Debian's package ships promtool)";
    private static final Path ALERTS = Path.of("deploy/prometheus/alerts.yml");
    private static final Path DASHBOARD = Path.of("deploy/grafana/pulseledger-dashboard.json");
    private static final Path METRICS_DOC = Path.of("docs/METRICS.md");
    /** Names in PromQL and docs that are ours; functions and label names never start with these. */
    private static final Pattern METRIC_NAME =
            Pattern.compile("\\b((?:pulseledger|process|http_server|jvm|system)_[a-z0-9_]+)\\b");

    /** Exposed only by a node with read replicas. */
    private static final String REPLICA_METRICS = "pulseledger_replica_";

    private static final Pattern FAMILY = Pattern.compile("(?m)^# TYPE (\\S+) ");

    private static TestNode node;
    private static String scrape;

    @BeforeAll
    static void startNodeAndMakeTraffic() {
        node = TestNode.start(TestStore.SQLITE.newDatabaseUrl());
        Fixtures.Caller caller = new Fixtures(node).caller(150);
        node.caller(caller.key()).post("/api/tokens/spend/100");
        node.caller(caller.key()).post("/api/tokens/spend/100");
        node.anonymous().get("/nothing-here");
        scrape = node.anonymous().get("/metrics").text();
    }

    @AfterAll
    static void stopNode() {
        node.close();
    }

    @Test
    void promtoolFindsNothingToComplainAbout() {
        ExternalTool promtool = ExternalTool.require("promtool", INSTALL);
        ExternalTool.Result result = promtool.run(scrape, "check", "metrics");
        assertThat(result.output()).isEmpty();
        assertThat(result.exitCode()).isZero();
    }

    @Test
    void theMetricsOperatorsAlertOnAreThere() {
        assertThat(scrape)
                .contains("process_cpu_seconds_total ")
                .contains("process_resident_memory_bytes ")
                .contains("process_open_fds ")
                .contains("process_start_time_seconds ")
                .containsPattern("pulseledger_build_info\\{.*version=\"\\d+\\.\\d+\\.\\d+")
                .contains("pulseledger_spend_queue_depth ")
                .contains("pulseledger_spend_batch_size_count ")
                .contains("pulseledger_db_pool_active_connections ")
                .contains("pulseledger_database_up 1.0")
                .contains("pulseledger_sse_streams_open ")
                .contains("pulseledger_webhook_backlog ")
                .contains("pulseledger_webhook_attempts_total{result=\"failed\"}")
                .contains("pulseledger_http_payment_required_total 1.0")
                .contains("pulseledger_http_too_many_requests_total ");
    }

    @Test
    void docsMetricsListsEveryMetricOfOurOwnAndTheStandardOnes() throws IOException {
        String doc = Files.readString(METRICS_DOC);
        Set<String> missing = new TreeSet<>();
        Matcher family = FAMILY.matcher(scrape);
        while (family.find()) {
            String name = family.group(1);
            boolean ours = name.startsWith("pulseledger_") || name.startsWith("process_") || name.startsWith("http_");
            if (ours && !doc.contains("`" + name.replaceFirst("_max$", "") + "`")) {
                missing.add(name);
            }
        }
        assertThat(missing).as("metrics missing from " + METRICS_DOC).isEmpty();
        // A node without --read-database-url has no replica metrics; ReadReplicaTest checks those on one that has.
        assertThat(namesIn(doc))
                .as("names in " + METRICS_DOC + " that /metrics lacks")
                .allMatch(name -> exposed(name) || name.startsWith(REPLICA_METRICS));
    }

    @Test
    void theAlertRulesPassPromtoolAndUseOnlyExposedMetrics() throws IOException {
        assertThat(namesIn(Files.readString(ALERTS))).isNotEmpty().allMatch(this::exposed);
        ExternalTool promtool = ExternalTool.require("promtool", INSTALL);
        ExternalTool.Result result = promtool.run("", "check", "rules", ALERTS.toString());
        assertThat(result.exitCode()).as(result.output()).isZero();
    }

    @Test
    void theDashboardQueriesOnlyExposedMetrics() throws IOException {
        JsonNode dashboard = new ObjectMapper().readTree(DASHBOARD.toFile());
        StringBuilder expressions = new StringBuilder();
        dashboard
                .path("panels")
                .forEach(panel -> panel.path("targets")
                        .forEach(target ->
                                expressions.append(target.path("expr").asText()).append('\n')));
        assertThat(dashboard.path("panels").size()).isGreaterThanOrEqualTo(10);
        assertThat(namesIn(expressions.toString())).isNotEmpty().allMatch(this::exposed);
    }

    private static Set<String> namesIn(String text) {
        Set<String> names = new TreeSet<>();
        Matcher matcher = METRIC_NAME.matcher(text);
        while (matcher.find()) {
            names.add(matcher.group(1));
        }
        return names;
    }

    /** A series the scrape has, or a histogram or summary whose _bucket, _count or _sum it has. */
    private boolean exposed(String name) {
        return Pattern.compile("(?m)^" + Pattern.quote(name) + "(?:_bucket|_count|_sum)?[{ ]")
                .matcher(scrape)
                .find();
    }
}
