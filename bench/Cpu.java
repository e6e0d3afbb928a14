import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * CPU time used by the server process and by the PostgreSQL backends serving its database, read
 * from /proc: per request it is much less disturbed by other load on the machine than req/s.
 */
record Cpu(long serverPid, Optional<String> database) {
    private static final double MICROS_PER_TICK = 10_000; // CLK_TCK is 100 on Linux

    /** CPU ticks per process at one moment. */
    record Snapshot(long server, Map<Long, Long> backends) {
        double serverMicrosSince(Snapshot before) {
            return (server - before.server()) * MICROS_PER_TICK;
        }

        double databaseMicrosSince(Snapshot before) {
            if (backends.isEmpty() && before.backends().isEmpty()) {
                return Double.NaN;
            }
            long ticks = 0;
            for (Map.Entry<Long, Long> backend : backends.entrySet()) {
                ticks += backend.getValue() - before.backends().getOrDefault(backend.getKey(), 0L);
            }
            return ticks * MICROS_PER_TICK;
        }
    }

    Snapshot snapshot() throws IOException {
        Map<Long, Long> backends = new LinkedHashMap<>();
        if (database.isPresent()) {
            String title = " " + database.get() + " ";
            try (var processes = Files.list(Path.of("/proc"))) {
                for (Path process : processes.toList()) {
                    String name = process.getFileName().toString();
                    if (!name.chars().allMatch(Character::isDigit)) {
                        continue;
                    }
                    try {
                        String command = Files.readString(process.resolve("cmdline")).replace('\0', ' ');
                        if (command.startsWith("postgres: ") && command.contains(title)) {
                            backends.put(Long.parseLong(name), ticks(Long.parseLong(name)));
                        }
                    } catch (IOException e) {
                        // the process ended meanwhile
                    }
                }
            }
        }
        return new Snapshot(ticks(serverPid), backends);
    }

    /** As {@link #ticks}, or 0 for a process that has ended. */
    static long ticksOrZero(long pid) {
        try {
            return ticks(pid);
        } catch (IOException e) {
            return 0;
        }
    }

    /** utime + stime, fields 14 and 15 of /proc/PID/stat (counted after the command's closing parenthesis). */
    private static long ticks(long pid) throws IOException {
        String stat = Files.readString(Path.of("/proc", Long.toString(pid), "stat"));
        String[] fields = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
        return Long.parseLong(fields[11]) + Long.parseLong(fields[12]);
    }
}
