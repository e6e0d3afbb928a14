import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The mixed case's client: an LLM provider's traffic over the mixed accounts, one connection per thread
 * (HTTP/1.1 keep-alive, one request at a time), each operation on a random account: 60 % reserve a random
 * maximum then settle a random actual amount, 25 % plain spends, 10 % balance reads, 5 % full reverts of
 * one of this connection's own earlier spendings. wrk cannot time its requests by kind, hence a client
 * of its own. An operation under way when the time is up is finished, so that every spending and revert
 * the server made was answered and counted here.
 */
final class MixedLoad {
    /** The kinds of request, each timed on its own. */
    enum Kind {
        RESERVE(201), SETTLE(200), SPEND(201), BALANCE(200), REVERT(200);

        final int expected;

        Kind(int expected) {
            this.expected = expected;
        }
    }

    private static final Pattern RESERVATION = Pattern.compile("\"reservationId\":\"(rsv_[0-9a-z]+)\"");
    private static final Pattern SPENDING = Pattern.compile("\"spendingId\":\"(sp_[0-9a-z]+)\"");
    private static final Pattern REVERTED = Pattern.compile("\"revertedAmount\":([0-9]+)");
    private static final int MOST_RESERVED = 4096;
    private static final int MOST_SPENT = 200;

    /** What the clients were told over all runs: spendings made, their tokens, and tokens reverted. */
    static final class Told {
        final AtomicLong spendings = new AtomicLong();
        final AtomicLong spent = new AtomicLong();
        final AtomicLong reverted = new AtomicLong();
        final AtomicLong unexpected = new AtomicLong();
    }

    /** One run: per kind the latencies (µs, sorted) and the statuses answered; pairs are settles. */
    record Run(double seconds, Map<Kind, long[]> latencies, Map<Kind, Map<Integer, Long>> statuses, long errors) {
        double perSecond(Kind kind) {
            return latencies.get(kind).length / seconds;
        }

        long percentileMicros(Kind kind, int percent) {
            long[] sorted = latencies.get(kind);
            if (sorted.length == 0) {
                return 0;
            }
            return sorted[Math.min(sorted.length - 1, (int) Math.ceil(sorted.length * percent / 100.0) - 1)];
        }

        long requests() {
            return latencies.values().stream().mapToLong(values -> values.length).sum();
        }

        String statusText(Kind kind) {
            StringBuilder text = new StringBuilder();
            statuses.get(kind).forEach((status, count) -> text.append(status).append(':').append(count).append(' '));
            return text.toString().trim();
        }

        boolean allExpected() {
            return errors == 0
                    && statuses.entrySet().stream().allMatch(e -> e.getValue().keySet().stream()
                            .allMatch(status -> status == e.getKey().expected));
        }
    }

    private MixedLoad() {}

    static Run run(int port, List<String> keys, int connections, int seconds, long seed, Told told)
            throws InterruptedException {
        long deadline = System.nanoTime() + seconds * 1_000_000_000L;
        List<Worker> workers = new ArrayList<>();
        List<Thread> threads = new ArrayList<>();
        long startNanos = System.nanoTime();
        for (int i = 0; i < connections; i++) {
            Worker worker = new Worker(port, keys, new SplittableRandom(seed * 1_000 + i), deadline, told);
            workers.add(worker);
            threads.add(Thread.ofPlatform().name("mixed-" + i).start(worker));
        }
        for (Thread thread : threads) {
            thread.join();
        }
        double elapsed = (System.nanoTime() - startNanos) / 1e9;
        Map<Kind, long[]> latencies = new EnumMap<>(Kind.class);
        Map<Kind, Map<Integer, Long>> statuses = new EnumMap<>(Kind.class);
        long errors = 0;
        for (Kind kind : Kind.values()) {
            long[] all = workers.stream().flatMapToLong(w -> Arrays.stream(w.latencies.get(kind).toArray())).toArray();
            Arrays.sort(all);
            latencies.put(kind, all);
            Map<Integer, Long> byStatus = new TreeMap<>();
            workers.forEach(w -> w.statuses.get(kind).forEach((status, count) -> byStatus.merge(status, count, Long::sum)));
            statuses.put(kind, byStatus);
        }
        for (Worker worker : workers) {
            errors += worker.errors;
        }
        return new Run(elapsed, latencies, statuses, errors);
    }

    /** One connection's closed loop. */
    private static final class Worker implements Runnable {
        private final int port;
        private final List<String> keys;
        private final SplittableRandom random;
        private final long deadline;
        private final Told told;
        private final Map<Kind, Longs> latencies = new EnumMap<>(Kind.class);
        private final Map<Kind, Map<Integer, Long>> statuses = new EnumMap<>(Kind.class);
        /** This connection's spendings not yet reverted: the key's index and the spending id. */
        private final List<Object[]> spendings = new ArrayList<>();
        private long errors;
        private OutputStream out;
        private InputStream in;

        Worker(int port, List<String> keys, SplittableRandom random, long deadline, Told told) {
            this.port = port;
            this.keys = keys;
            this.random = random;
            this.deadline = deadline;
            this.told = told;
            for (Kind kind : Kind.values()) {
                latencies.put(kind, new Longs());
                statuses.put(kind, new TreeMap<>());
            }
        }

        @Override
        public void run() {
            try (Socket socket = new Socket("127.0.0.1", port)) {
                socket.setTcpNoDelay(true);
                socket.setSoTimeout(10_000);
                out = socket.getOutputStream();
                in = new BufferedInputStream(socket.getInputStream(), 16 * 1024);
                while (System.nanoTime() < deadline) {
                    operation();
                }
            } catch (IOException e) {
                errors++;
            }
        }

        private void operation() throws IOException {
            int dice = random.nextInt(100);
            int index = random.nextInt(keys.size());
            if (dice < 60) {
                int most = 1 + random.nextInt(MOST_RESERVED);
                String reserved = send(Kind.RESERVE, index, "POST", "/api/tokens/reservations",
                        "{\"amount\": " + most + ", \"expiresInSeconds\": 600}");
                Matcher id = RESERVATION.matcher(reserved);
                if (id.find()) {
                    int actual = 1 + random.nextInt(most);
                    String settled = send(Kind.SETTLE, index, "POST", "/api/tokens/reservations/" + id.group(1) + "/settle",
                            "{\"amount\": " + actual + "}");
                    spent(index, settled, actual);
                }
            } else if (dice < 85 || (dice >= 95 && spendings.isEmpty())) {
                int amount = 1 + random.nextInt(MOST_SPENT);
                spent(index, send(Kind.SPEND, index, "POST", "/api/tokens/spend/" + amount, ""), amount);
            } else if (dice < 95) {
                send(Kind.BALANCE, index, "GET", "/api/tokens/balance", null);
            } else {
                Object[] spending = spendings.remove(random.nextInt(spendings.size()));
                String reverted = send(Kind.REVERT, (Integer) spending[0], "POST",
                        "/api/tokens/spendings/" + spending[1] + "/revert", "");
                Matcher amount = REVERTED.matcher(reverted);
                if (amount.find()) {
                    told.reverted.addAndGet(Long.parseLong(amount.group(1)));
                }
            }
        }

        /** Keeps a spending the server answered for, to revert later, and counts it. */
        private void spent(int index, String body, long amount) {
            Matcher id = SPENDING.matcher(body);
            if (id.find()) {
                spendings.add(new Object[] {index, id.group(1)});
                told.spendings.incrementAndGet();
                told.spent.addAndGet(amount);
            }
        }

        /** One exchange; returns the body when the status is the expected one, else "". */
        private String send(Kind kind, int index, String method, String path, String body) throws IOException {
            StringBuilder request = new StringBuilder(256)
                    .append(method).append(' ').append(path).append(" HTTP/1.1\r\nHost: 127.0.0.1\r\nX-ApiKey: ")
                    .append(keys.get(index)).append("\r\n");
            byte[] content = body == null ? new byte[0] : body.getBytes(StandardCharsets.UTF_8);
            if (body != null) {
                if (!body.isEmpty()) {
                    request.append("Content-Type: application/json\r\n");
                }
                request.append("Content-Length: ").append(content.length).append("\r\n");
            }
            request.append("\r\n");
            long start = System.nanoTime();
            out.write(request.toString().getBytes(StandardCharsets.US_ASCII));
            out.write(content);
            out.flush();
            int status = readStatus();
            String answer = readBody();
            latencies.get(kind).add((System.nanoTime() - start) / 1_000);
            statuses.get(kind).merge(status, 1L, Long::sum);
            if (status != kind.expected) {
                told.unexpected.incrementAndGet();
                return "";
            }
            return answer;
        }

        private int contentLength;
        private boolean chunked;

        private int readStatus() throws IOException {
            String line = readLine();
            int status = Integer.parseInt(line.substring(9, 12));
            contentLength = 0;
            chunked = false;
            for (String header = readLine(); !header.isEmpty(); header = readLine()) {
                String lower = header.toLowerCase(java.util.Locale.ROOT);
                if (lower.startsWith("content-length:")) {
                    contentLength = Integer.parseInt(lower.substring(15).trim());
                } else if (lower.startsWith("transfer-encoding:") && lower.contains("chunked")) {
                    chunked = true;
                }
            }
            return status;
        }

        private String readBody() throws IOException {
            if (!chunked) {
                return new String(in.readNBytes(contentLength), StandardCharsets.UTF_8);
            }
            StringBuilder body = new StringBuilder();
            for (int size = Integer.parseInt(readLine().trim(), 16); size > 0;
                    size = Integer.parseInt(readLine().trim(), 16)) {
                body.append(new String(in.readNBytes(size), StandardCharsets.UTF_8));
                readLine();
            }
            readLine();
            return body.toString();
        }

        private String readLine() throws IOException {
            StringBuilder line = new StringBuilder();
            for (int c = in.read(); c != '\n'; c = in.read()) {
                if (c < 0) {
                    throw new IOException("the server closed the connection");
                }
                if (c != '\r') {
                    line.append((char) c);
                }
            }
            return line.toString();
        }
    }

    /** A growable list of longs. */
    private static final class Longs {
        private long[] values = new long[4096];
        private int size;

        void add(long value) {
            if (size == values.length) {
                values = Arrays.copyOf(values, size * 2);
            }
            values[size++] = value;
        }

        long[] toArray() {
            return Arrays.copyOf(values, size);
        }
    }
}
