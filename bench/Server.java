import dev.pulseledger.keys.Secrets;
import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/** The server under test: {@code java [options] -jar pulseledger.jar serve}, as the README starts it. */
final class Server implements AutoCloseable {
    private final Process process;
    private final int port;
    private final String adminKey;
    private final HttpClient http = HttpClient.newHttpClient();

    private Server(Process process, int port, String adminKey) {
        this.process = process;
        this.port = port;
        this.adminKey = adminKey;
    }

    /** Starts {@code jar} on {@code url}; its log goes to {@code <name>-server.log} in {@code folder}. */
    static Server start(Options options, Path jar, String url, Path folder, String name) throws Exception {
        return start(options, jar, url, folder, name, List.of());
    }

    /** As above, with more flags of {@code serve} (shown in the output as given). */
    static Server start(Options options, Path jar, String url, Path folder, String name, List<String> flags)
            throws Exception {
        int port;
        try (ServerSocket socket = new ServerSocket(0)) {
            port = socket.getLocalPort();
        }
        String adminKey = Secrets.newAdminKey();
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.addAll(options.javaOptions());
        if (options.profile()) {
            command.add("-XX:StartFlightRecording=settings=profile,filename="
                    + folder.resolve(name + ".jfr").toAbsolutePath());
        }
        command.addAll(List.of("-jar", jar.toString(), "serve", "--port", Integer.toString(port)));
        command.addAll(flags);
        System.out.println("  server: " + String.join(" ", command) + " --database-url <fresh database> --admin-key <generated>");
        command.addAll(List.of("--database-url", url, "--admin-key", adminKey));
        Process process = new ProcessBuilder(command)
                .redirectErrorStream(true)
                .redirectOutput(folder.resolve(name + "-server.log").toFile())
                .start();
        Server server = new Server(process, port, adminKey);
        server.awaitReady(Duration.ofSeconds(60));
        return server;
    }

    int port() {
        return port;
    }

    long pid() {
        return process.pid();
    }

    private void awaitReady(Duration timeout) throws Exception {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (System.nanoTime() < deadline) {
            if (!process.isAlive()) {
                throw new IllegalStateException("the server exited; see server.log");
            }
            try {
                if (send(HttpRequest.newBuilder(uri("/health/ready")).GET()).statusCode() == 200) {
                    return;
                }
            } catch (IOException e) {
                // not listening yet
            }
            Thread.sleep(200);
        }
        throw new IllegalStateException("the server was not ready within " + timeout);
    }

    /** Fifty public services, a fifth of them spotlighted, through the operator API. */
    void putServices() throws Exception {
        String[] statuses = {"operational", "degraded_performance", "partial_outage", "major_outage", "under_maintenance"};
        for (int i = 1; i <= Bench.SERVICES; i++) {
            String body = String.format(
                    Locale.ROOT,
                    "{\"name\":\"Service %d\",\"description\":\"Bench service number %d, with a description of"
                            + " typical length.\",\"status\":\"%s\",\"spotlighted\":%b,\"position\":%d,\"public\":true}",
                    i,
                    i,
                    statuses[i % statuses.length],
                    i % 5 == 0,
                    i);
            HttpResponse<String> response = send(HttpRequest.newBuilder(uri("/admin/services/svc-" + i))
                    .header("X-ApiKey", adminKey)
                    .header("Content-Type", "application/json")
                    .PUT(HttpRequest.BodyPublishers.ofString(body)));
            if (response.statusCode() / 100 != 2) {
                throw new IllegalStateException("PUT service failed: " + response.statusCode() + " " + response.body());
            }
        }
    }

    /** Opens an incident on one service through the operator API. */
    void openIncident(String title, String serviceId) throws IOException, InterruptedException {
        String body = String.format(
                Locale.ROOT,
                "{\"title\":\"%s\",\"impact\":\"minor\",\"status\":\"investigating\",\"message\":\"Looking"
                        + " into it.\",\"services\":{\"%s\":\"degraded_performance\"}}",
                title,
                serviceId);
        HttpResponse<String> response = send(HttpRequest.newBuilder(uri("/admin/incidents"))
                .header("X-ApiKey", adminKey)
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(body)));
        if (response.statusCode() != 201) {
            throw new IllegalStateException("POST incident failed: " + response.statusCode() + " " + response.body());
        }
    }

    /** The sum of a Prometheus metric's series whose line starts with {@code nameAndLabels} (e.g. {@code x{a="b"}). */
    double metricSum(String nameAndLabels) throws IOException, InterruptedException {
        double sum = 0;
        for (String line : send(HttpRequest.newBuilder(uri("/metrics")).GET()).body().lines().toList()) {
            if (line.startsWith(nameAndLabels)) {
                sum += Double.parseDouble(line.substring(line.lastIndexOf(' ') + 1));
            }
        }
        return sum;
    }

    /** The Content-Encoding of the pulse feed as sent to the caller key when it accepts gzip ("" when none). */
    String pulseEncodingWhenGzipAccepted(String key) throws IOException, InterruptedException {
        return send(HttpRequest.newBuilder(uri("/api/pulse"))
                        .header("X-ApiKey", key)
                        .header("Accept-Encoding", "gzip")
                        .GET())
                .headers()
                .firstValue("Content-Encoding")
                .orElse("");
    }

    /** Spends 1 token with the caller key; returns the status. */
    int spend(String key) throws IOException, InterruptedException {
        return send(HttpRequest.newBuilder(uri("/api/tokens/spend/1"))
                        .header("X-ApiKey", key)
                        .POST(HttpRequest.BodyPublishers.noBody()))
                .statusCode();
    }

    /** The server's Prometheus metrics without labels, by name. */
    Map<String, Double> metrics() throws IOException, InterruptedException {
        Map<String, Double> values = new LinkedHashMap<>();
        for (String line : send(HttpRequest.newBuilder(uri("/metrics")).GET()).body().lines().toList()) {
            String[] parts = line.split(" ");
            if (!line.startsWith("#") && parts.length == 2 && !parts[0].contains("{")) {
                values.put(parts[0], Double.parseDouble(parts[1]));
            }
        }
        return values;
    }

    private HttpResponse<String> send(HttpRequest.Builder request) throws IOException, InterruptedException {
        return http.send(request.timeout(Duration.ofSeconds(10)).build(), HttpResponse.BodyHandlers.ofString());
    }

    private URI uri(String path) {
        return URI.create("http://127.0.0.1:" + port + path);
    }

    /** A memory figure of the server process from /proc, in kB (VmRSS now, VmHWM the peak). */
    long procStatusKb(String field) {
        try {
            for (String line : Files.readAllLines(Path.of("/proc", Long.toString(process.pid()), "status"))) {
                if (line.startsWith(field + ":")) {
                    return Long.parseLong(line.replaceAll("[^0-9]", ""));
                }
            }
        } catch (IOException e) {
            return 0;
        }
        return 0;
    }

    /** SIGTERM: the server stops taking requests and commits what is queued, then exits. */
    @Override
    public void close() throws InterruptedException {
        process.destroy();
        if (!process.waitFor(30, TimeUnit.SECONDS)) {
            process.destroyForcibly();
            process.waitFor();
        }
    }
}
