import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/** What the numbers were measured on; a busy machine (load average above the cores) skews them. */
final class Machine {
    static String describe(Options options) throws Exception {
        String cpu = Files.readAllLines(Path.of("/proc/cpuinfo")).stream()
                .filter(line -> line.startsWith("model name"))
                .findFirst()
                .map(line -> line.substring(line.indexOf(':') + 1).trim())
                .orElse("unknown CPU");
        String memory = Files.readAllLines(Path.of("/proc/meminfo")).stream()
                .filter(line -> line.startsWith("MemTotal"))
                .findFirst()
                .map(line -> Long.parseLong(line.replaceAll("[^0-9]", "")) / 1024 / 1024 + " GB")
                .orElse("?");
        String postgres = "not used";
        if (options.stores().contains("postgresql")) {
            String url = "jdbc:postgresql://" + options.pgHost() + ":" + options.pgPort() + "/postgres?user="
                    + options.pgUser();
            try (Connection connection = DriverManager.getConnection(url);
                    Statement statement = connection.createStatement();
                    ResultSet rs = statement.executeQuery("SHOW server_version")) {
                rs.next();
                postgres = "PostgreSQL " + rs.getString(1);
            }
        }
        return String.format(
                Locale.ROOT,
                "Machine: %d cores (%s), %s RAM, Linux %s; Java %s; %s; %s; server JVM options: %s%n"
                        + "Run: %d rounds, interleaved (every case once per round, each beside its yardstick);"
                        + " %d s per case, each after %d s of its own load unmeasured; %d s of warm-up per server;"
                        + " load average at the start: %s%n",
                Runtime.getRuntime().availableProcessors(),
                cpu,
                memory,
                Files.readString(Path.of("/proc/sys/kernel/osrelease")).trim(),
                Runtime.version(),
                Processes.run(List.of("wrk", "-v"), Duration.ofSeconds(10), Map.of(), false) // exits 1
                        .lines()
                        .findFirst()
                        .orElse("wrk")
                        .replaceAll(" Copyright.*", ""),
                postgres,
                options.javaOptions().isEmpty() ? "(none)" : String.join(" ", options.javaOptions()),
                options.rounds(),
                options.seconds(),
                options.caseWarmupSeconds(),
                options.warmupSeconds(),
                loadAverage());
    }

    static String loadAverage() throws IOException {
        String[] fields = Files.readString(Path.of("/proc/loadavg")).split(" ");
        return fields[0] + " " + fields[1] + " " + fields[2];
    }
}
