package dev.pulseledger.http;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Random;

/**
 * Generates requests that are wrong in at least one way that must stop them before any state
 * changes: broken framing, a bad or missing key, a bad amount, cursor, limit or idempotency key, or
 * a body that is not what the route accepts. Other parts are varied at random around that fault.
 */
final class MalformedRequests {
    /** Amounts the contract rejects, including encodings that must not decode to a valid number. */
    private static final List<String> BAD_AMOUNTS = List.of(
            "0",
            "-5",
            "1.5",
            "abc",
            "1000000001",
            "99999999999999999999999",
            "00100",
            "+100",
            " 100",
            "1e3",
            "0x10",
            "%31%30%30%zz",
            "%00",
            "%",
            "%FF%FE",
            "%C0%AF",
            "１００",
            "100%20",
            "NaN",
            "-0",
            "");

    private static final List<String> BAD_CURSORS = List.of(
            "",
            "%%%",
            "!!!!",
            "djE6LTE",
            "djE6YWJj",
            "djE6MA",
            "AAAA",
            "v1:5",
            "x".repeat(500),
            Base64.getUrlEncoder().encodeToString("v2:5".getBytes(StandardCharsets.UTF_8)));
    private static final List<String> BAD_LIMITS = List.of("0", "-1", "101", "abc", "1.5", "99999999999", "", "%00");
    private static final List<String> METHODS =
            List.of("GET", "POST", "PUT", "PATCH", "DELETE", "HEAD", "OPTIONS", "TRACE", "CONNECT", "FOO", "get");
    /* Not JSON null: where a body is optional it counts as left out (Requests.optionalJsonBody), so a
    key created from it is a well-formed request, not a state change a malformed one made. */
    private static final List<String> BAD_BODIES = List.of(
            "{",
            "}",
            "[]",
            "\"text\"",
            "{\"name\": }",
            "{\"name\": \"a\",}",
            "{\"name\": \"a\", \"name\": \"b\"}",
            "{\"unknownField\": 1}",
            "{\"amount\": \"10\", \"reason\": 5}",
            "{\"amount\": 1.5}",
            "{\"amount\": 0}",
            "{\"amount\": -3}",
            "{\"amount\": 1e400}",
            "{\"amount\": 123456789012345678901234567890123456789012345}",
            "{\"planId\": \"no-such-plan\"}",
            "{\"planId\": \"UPPER case\"}",
            "{\"status\": \"melting\"}",
            "{\"name\": \"x\\u0000y\"}",
            "{\"spotlighted\": \"yes\"}",
            "\uFEFF{\"unknownField\": \"after a byte order mark\"}",
            "[".repeat(5000),
            "{\"a\":".repeat(100) + "1" + "}".repeat(100),
            "{\"name\": \"" + "x".repeat(70_000) + "\"}");

    private final Random random;
    private final List<String> callerPaths;
    private final String callerKey;
    private final String adminKey;
    private final String accountId;

    MalformedRequests(Random random, String callerKey, String adminKey, String accountId) {
        this.random = random;
        this.callerKey = callerKey;
        this.adminKey = adminKey;
        this.accountId = accountId;
        this.callerPaths = List.of(
                "/api/tokens/balance",
                "/api/tokens/plan",
                "/api/tokens/spendings",
                "/api/pulse",
                "/api/tokens/spend/100",
                "/api/tokens/spendings/sp_01aaaaaaaaaaaaaaaaaaaaaaaa/revert");
    }

    /** One malformed request, as bytes on the wire. */
    byte[] next() {
        return switch (random.nextInt(8)) {
            case 0 -> garbage();
            case 1 -> brokenFraming();
            case 2 -> badKey();
            case 3 -> badAmount();
            case 4 -> badQuery();
            case 5 -> badIdempotencyKey();
            case 6 -> badAdminBody();
            default -> oversized();
        };
    }

    private byte[] garbage() {
        byte[] bytes = new byte[1 + random.nextInt(400)];
        random.nextBytes(bytes);
        if (random.nextBoolean()) {
            String start = pick(METHODS) + " /" + pick(List.of("", "api", "admin", "..", "%zz")) + " ";
            byte[] prefixed = new byte[start.length() + bytes.length];
            System.arraycopy(start.getBytes(StandardCharsets.US_ASCII), 0, prefixed, 0, start.length());
            System.arraycopy(bytes, 0, prefixed, start.length(), bytes.length);
            return prefixed;
        }
        return bytes;
    }

    private byte[] brokenFraming() {
        String path = pick(callerPaths);
        return switch (random.nextInt(10)) {
            case 0 ->
                ascii("POST " + path + " HTTP/1.1\r\nHost: x\r\nX-ApiKey: " + callerKey
                        + "\r\nContent-Length: 5\r\nContent-Length: 7\r\n\r\n1234567");
            case 1 ->
                ascii("POST " + path + " HTTP/1.1\r\nHost: x\r\nX-ApiKey: " + callerKey
                        + "\r\nTransfer-Encoding: chunked\r\nContent-Length: 3\r\n\r\n0\r\n\r\n");
            case 2 ->
                ascii("POST /admin/plans HTTP/1.1\r\nHost: x\r\nX-ApiKey: " + adminKey
                        + "\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n"
                        + pick(List.of("zz\r\n", "5\r\n{\"id\"\r\n", "-1\r\n", "ffffffffffffffff\r\n")));
            case 3 ->
                ascii("GET " + path + " " + pick(List.of("HTTP/1.0", "HTTP/2.0", "HTTP/9.9", "HTTPX/1.1", "http/1.1"))
                        + "\r\nHost: x\r\n\r\n");
            case 4 -> ascii("GET " + path + " HTTP/1.1\r\nHost: x\r\nBad Header: y\r\n\r\n");
            case 5 -> ascii("GET " + path + " HTTP/1.1\r\n\r\n");
            case 6 ->
                ascii("POST /admin/plans HTTP/1.1\r\nHost: x\r\nX-ApiKey: " + adminKey
                        + "\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{\"id\": \"short\"");
            case 7 -> {
                // A credit whose chunk lacks its CRLF, with a second credit pipelined behind it: neither may run.
                String credit = "POST /admin/accounts/" + accountId + "/credits HTTP/1.1\r\nHost: x\r\nX-ApiKey: "
                        + adminKey + "\r\nContent-Type: application/json\r\n";
                yield ascii(credit + "Transfer-Encoding: chunked\r\n\r\nd\r\n{\"amount\": 7}"
                        + pick(List.of("AB", "\n", "\r", "")) + "0\r\n\r\n" + credit
                        + "Content-Length: 13\r\n\r\n{\"amount\": 9}");
            }
            case 8 ->
                ascii("POST /admin/accounts/" + accountId + "/credits HTTP/1.1\r\nHost: x\r\nX-ApiKey: " + adminKey
                        + "\r\nContent-Type: application/json\r\nTransfer-Encoding:\r\n chunked\r\nContent-Length: 13"
                        + "\r\n\r\n{\"amount\": 5}");
            default -> ascii("GET " + path + " HTTP/1.1\nHost: x\n\n");
        };
    }

    private byte[] badKey() {
        String method = pick(METHODS);
        String path = pick(callerPaths).replace("/100", "/" + (1 + random.nextInt(50)));
        String keyHeader = switch (random.nextInt(6)) {
            case 0 -> "";
            case 1 -> "X-ApiKey: \r\n";
            case 2 -> "X-ApiKey: pl_" + randomText(32) + "\r\n";
            case 3 -> "X-ApiKey: " + adminKey + "\r\n";
            case 4 -> "X-ApiKey: " + "k".repeat(201 + random.nextInt(1000)) + "\r\n";
            default -> "X-ApiKey: " + callerKey.substring(0, callerKey.length() - 1) + "\r\n";
        };
        return ascii(method + " " + path + " HTTP/1.1\r\nHost: x\r\n" + keyHeader + "\r\n");
    }

    private byte[] badAmount() {
        return request(
                pick(List.of("POST", "POST", "GET", "PUT")),
                "/api/tokens/spend/" + pick(BAD_AMOUNTS),
                callerKey,
                List.of());
    }

    private byte[] badQuery() {
        String query = switch (random.nextInt(4)) {
            case 0 -> "cursor=" + pick(BAD_CURSORS);
            case 1 -> "limit=" + pick(BAD_LIMITS);
            case 2 -> "limit=5&limit=6";
            default -> "cursor=" + pick(BAD_CURSORS) + "&limit=" + pick(BAD_LIMITS);
        };
        String path = random.nextBoolean()
                ? "/api/tokens/spendings?" + query
                : "/admin/accounts" + (random.nextBoolean() ? "" : "/" + accountId + "/ledger") + "?" + query;
        return request("GET", path, path.startsWith("/api") ? callerKey : adminKey, List.of());
    }

    private byte[] badIdempotencyKey() {
        String header = switch (random.nextInt(5)) {
            case 0 -> "Idempotency-Key: " + "i".repeat(256 + random.nextInt(500));
            case 1 -> "Idempotency-Key: ";
            case 2 -> "Idempotency-Key: a\u0001b";
            case 3 -> "Idempotency-Key: caf\u00e9-\u00ff";
            default -> "Idempotency-Key: twice\r\nIdempotency-Key: twice";
        };
        return request("POST", "/api/tokens/spend/" + (1 + random.nextInt(100)), callerKey, List.of(header));
    }

    private byte[] badAdminBody() {
        String path = pick(List.of(
                "/admin/plans",
                "/admin/plans/free",
                "/admin/accounts",
                "/admin/accounts/" + accountId + "/plan",
                "/admin/accounts/" + accountId + "/credits",
                "/admin/accounts/" + accountId + "/keys",
                "/admin/services/fuzz-service"));
        String method = path.endsWith("/plan") || path.endsWith("/free") || path.contains("/services/")
                ? pick(List.of("PUT", "PATCH"))
                : "POST";
        List<String> headers = new ArrayList<>();
        headers.add("Content-Type: "
                + pick(List.of(
                        "application/json", "application/json; charset=utf-8", "text/plain", "application/xml")));
        byte[] body = random.nextInt(10) == 0 ? invalidUtf8() : pick(BAD_BODIES).getBytes(StandardCharsets.UTF_8);
        return request(method, path, adminKey, headers, body);
    }

    private byte[] oversized() {
        return switch (random.nextInt(3)) {
            case 0 -> request("GET", "/api/tokens/balance", callerKey, List.of("X-Big: " + "b".repeat(20_000)));
            case 1 -> request("GET", "/api/tokens/spendings?cursor=" + "c".repeat(5000), callerKey, List.of());
            default ->
                request(
                        "POST",
                        "/admin/plans",
                        adminKey,
                        List.of("Content-Type: application/json"),
                        ("{\"id\": \"big\", \"name\": \"" + "n".repeat(70_000) + "\"}")
                                .getBytes(StandardCharsets.UTF_8));
        };
    }

    private byte[] invalidUtf8() {
        return new byte[] {'{', '"', 'n', 'a', 'm', 'e', '"', ':', '"', (byte) 0xC3, (byte) 0x28, (byte) 0xFF, '"', '}'
        };
    }

    private byte[] request(String method, String path, String key, List<String> headers) {
        return request(method, path, key, headers, new byte[0]);
    }

    private byte[] request(String method, String path, String key, List<String> headers, byte[] body) {
        StringBuilder head =
                new StringBuilder(method + " " + path + " HTTP/1.1\r\nHost: x\r\nX-ApiKey: " + key + "\r\n");
        headers.forEach(header -> head.append(header).append("\r\n"));
        if (body.length > 0) {
            head.append("Content-Length: ").append(body.length).append("\r\n");
        }
        head.append("Connection: close\r\n\r\n");
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        bytes.writeBytes(head.toString().getBytes(StandardCharsets.ISO_8859_1));
        bytes.writeBytes(body);
        return bytes.toByteArray();
    }

    private String randomText(int length) {
        StringBuilder text = new StringBuilder();
        for (int i = 0; i < length; i++) {
            text.append((char) ('a' + random.nextInt(26)));
        }
        return text.toString();
    }

    private <T> T pick(List<T> options) {
        return options.get(random.nextInt(options.size()));
    }

    private static byte[] ascii(String text) {
        return text.getBytes(StandardCharsets.ISO_8859_1);
    }
}
