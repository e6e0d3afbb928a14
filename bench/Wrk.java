import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/** Runs wrk with one of the bench's scripts against one server and reads the line the script prints. */
final class Wrk {
    private Wrk() {}

    /**
     * One run of {@code script}; bench/wrk.lua also takes the method and path. {@code key} is a caller key,
     * {@code @file} of keys to rotate over, or null. {@code tally}
     * makes the script count every status (dearer for the client). The command and output are appended
     * to {@code log}, with a single key masked.
     */
    static Run run(Path log, String script, int port, String method, String path, String key, int connections, int seconds,
            boolean tally) throws Exception {
        return run(log, script, port, method, path, key, connections, seconds, tally, "");
    }

    /** As above; a non-empty {@code acceptEncoding} is sent as every request's Accept-Encoding (bench/wrk.lua). */
    static Run run(Path log, String script, int port, String method, String path, String key, int connections, int seconds,
            boolean tally, String acceptEncoding) throws Exception {
        List<String> command = new ArrayList<>(List.of(
                "wrk",
                "-t",
                Integer.toString(Math.min(2, connections)),
                "-c",
                Integer.toString(connections),
                "-d",
                seconds + "s",
                "--timeout",
                "10s",
                "-s",
                Path.of(script).toAbsolutePath().toString(),
                "http://127.0.0.1:" + port + path,
                "--"));
        if (script.endsWith("wrk.lua")) {
            command.addAll(List.of(method, path));
        }
        if (key != null) {
            command.add(key);
        }
        String output = Processes.run(
                command,
                Duration.ofSeconds(seconds + 60),
                Map.of("BENCH_TALLY", tally ? "1" : "0", "BENCH_ACCEPT_ENCODING", acceptEncoding),
                true);
        Files.writeString(
                log,
                String.join(" ", command).replace(key == null ? "\0" : key, "<key>") + "\n" + output + "\n",
                StandardOpenOption.CREATE,
                StandardOpenOption.APPEND);
        return parse(output);
    }

    private static Run parse(String output) {
        String line = output.lines()
                .filter(l -> l.startsWith("BENCH "))
                .findFirst()
                .orElseThrow(() -> new IllegalStateException("wrk printed no result:\n" + output));
        Map<String, String> fields = new LinkedHashMap<>();
        for (String pair : line.substring(6).split(" ")) {
            String[] parts = pair.split("=", 2);
            fields.put(parts[0], parts[1]);
        }
        Map<Integer, Long> statuses = new TreeMap<>();
        fields.forEach((name, value) -> {
            if (name.startsWith("status_")) {
                statuses.put(Integer.parseInt(name.substring(7)), Long.parseLong(value));
            }
        });
        long errors = Long.parseLong(fields.get("connect_errors"))
                + Long.parseLong(fields.get("read_errors"))
                + Long.parseLong(fields.get("write_errors"))
                + Long.parseLong(fields.get("timeouts"));
        return new Run(
                Double.parseDouble(fields.get("seconds")),
                Double.parseDouble(fields.get("rps")),
                Long.parseLong(fields.get("p50_us")),
                Long.parseLong(fields.get("p99_us")),
                Long.parseLong(fields.get("max_us")),
                errors,
                Long.parseLong(fields.get("requests")),
                Long.parseLong(fields.get("non_2xx_3xx")),
                statuses);
    }

    /** What wrk's script reported for one run. */
    record Run(
            double seconds,
            double requestsPerSecond,
            long p50Micros,
            long p99Micros,
            long maxMicros,
            long errors,
            long requests,
            long non2xx,
            Map<Integer, Long> statuses) {
        /**
         * Runs made at the same time against several servers, as one: requests, rates and statuses added up,
         * the slowest run's latencies.
         */
        static Run together(List<Run> runs) {
            Map<Integer, Long> statuses = new TreeMap<>();
            runs.forEach(run -> run.statuses().forEach((status, count) -> statuses.merge(status, count, Long::sum)));
            return new Run(
                    runs.stream().mapToDouble(Run::seconds).max().orElse(0),
                    runs.stream().mapToDouble(Run::requestsPerSecond).sum(),
                    runs.stream().mapToLong(Run::p50Micros).max().orElse(0),
                    runs.stream().mapToLong(Run::p99Micros).max().orElse(0),
                    runs.stream().mapToLong(Run::maxMicros).max().orElse(0),
                    runs.stream().mapToLong(Run::errors).sum(),
                    runs.stream().mapToLong(Run::requests).sum(),
                    runs.stream().mapToLong(Run::non2xx).sum(),
                    statuses);
        }

        long count(int status) {
            return statuses.getOrDefault(status, 0L);
        }

        String statusText() {
            StringBuilder text = new StringBuilder();
            if (statuses.isEmpty()) {
                text.append("2xx:").append(requests - non2xx).append(' ');
                if (non2xx > 0) {
                    text.append("other:").append(non2xx).append(' ');
                }
            }
            new TreeMap<>(statuses).forEach((status, count) -> text.append(status).append(':').append(count).append(' '));
            if (errors > 0) {
                text.append("socket-errors:").append(errors);
            }
            return text.toString().trim();
        }
    }
}
