package dev.pulseledger.http;

import static org.assertj.core.api.Assertions.assertThat;

import dev.pulseledger.support.Api;
import dev.pulseledger.support.Fixtures;
import dev.pulseledger.support.RawHttp;
import dev.pulseledger.support.Reply;
import dev.pulseledger.support.TestNode;
import dev.pulseledger.support.TestStore;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Hostile request framing on raw sockets (CONTRACT §12): each malformed credit carries a second
 * credit pipelined behind it. The answer is one 400, the connection is closed, and neither credit
 * is applied.
 */
class MalformedFramingTest {
    /** A credit of one token: 13 bytes, 0xd. */
    private static final String CREDIT = "{\"amount\": 1}";

    /** The code of a request refused for its body's framing. */
    private static final String BODY = "invalid_body";

    /** The code of a request refused for its request line or a header line. */
    private static final String HEAD = "bad_request";

    private static TestNode node;
    private static Api admin;
    private static String accountId;

    @BeforeAll
    static void start() {
        node = TestNode.start(TestStore.SQLITE.newDatabaseUrl());
        admin = node.admin();
        accountId = new Fixtures(node).account(100);
    }

    @AfterAll
    static void stop() {
        node.close();
    }

    static List<Arguments> malformedRequests() {
        List<Arguments> cases = new ArrayList<>();
        // Chunk sizes.
        chunked(cases, "chunk size with an extension", "d;ext=1\r\n" + CREDIT + "\r\n0\r\n\r\n");
        chunked(cases, "chunk size followed by a space", "d \r\n" + CREDIT + "\r\n0\r\n\r\n");
        chunked(cases, "chunk size after a space", " d\r\n" + CREDIT + "\r\n0\r\n\r\n");
        chunked(cases, "chunk size after a tab", "\td\r\n" + CREDIT + "\r\n0\r\n\r\n");
        chunked(cases, "chunk size with a plus sign", "+d\r\n" + CREDIT + "\r\n0\r\n\r\n");
        chunked(cases, "negative chunk size", "-1\r\n" + CREDIT + "\r\n0\r\n\r\n");
        chunked(cases, "chunk size with 0x", "0xd\r\n" + CREDIT + "\r\n0\r\n\r\n");
        chunked(cases, "chunk size that is not hex", "zz\r\n" + CREDIT + "\r\n0\r\n\r\n");
        chunked(cases, "empty chunk size", "\r\n" + CREDIT + "\r\n0\r\n\r\n");
        chunked(cases, "chunk size with a NUL", "d\u0000\r\n" + CREDIT + "\r\n0\r\n\r\n");
        chunked(cases, "huge hex size (16 f)", "ffffffffffffffff\r\n" + CREDIT + "\r\n0\r\n\r\n");
        chunked(cases, "huge hex size (2^32)", "100000000\r\n" + CREDIT + "\r\n0\r\n\r\n");
        chunked(cases, "huge hex size (2^31)", "80000000\r\n" + CREDIT + "\r\n0\r\n\r\n");
        chunked(cases, "huge hex size (2^64 + 13)", "1000000000000000d\r\n" + CREDIT + "\r\n0\r\n\r\n");
        chunked(cases, "seventeen-digit chunk size", "0000000000000000d\r\n" + CREDIT + "\r\n0\r\n\r\n");
        chunked(cases, "chunk size larger than its data", "20\r\n" + CREDIT + "\r\n0\r\n\r\n");
        chunked(cases, "chunk size smaller than its data", "5\r\n" + CREDIT + "\r\n0\r\n\r\n");
        // Line endings around chunks.
        chunked(cases, "chunk size line ended by LF alone", "d\n" + CREDIT + "\r\n0\r\n\r\n");
        chunked(cases, "chunk size line ended by CR alone", "d\r" + CREDIT + "\r\n0\r\n\r\n");
        chunked(cases, "chunk data followed by AB instead of CRLF", "d\r\n" + CREDIT + "AB0\r\n\r\n");
        chunked(cases, "chunk data followed by nothing", "d\r\n" + CREDIT + "0\r\n\r\n");
        chunked(cases, "chunk data followed by LF alone", "d\r\n" + CREDIT + "\n0\r\n\r\n");
        chunked(cases, "chunk data followed by CR alone", "d\r\n" + CREDIT + "\r0\r\n\r\n");
        chunked(cases, "chunk data followed by LF CR", "d\r\n" + CREDIT + "\n\r0\r\n\r\n");
        // The last chunk and trailers.
        chunked(cases, "no last chunk", "d\r\n" + CREDIT + "\r\n");
        chunked(cases, "last chunk without the empty line", "d\r\n" + CREDIT + "\r\n0\r\n");
        chunked(cases, "last chunk ended by LF alone", "d\r\n" + CREDIT + "\r\n0\n\n");
        chunked(cases, "empty line after the last chunk is LF alone", "d\r\n" + CREDIT + "\r\n0\r\n\n");
        chunked(cases, "trailer field", "d\r\n" + CREDIT + "\r\n0\r\nX-Trailer: 1\r\n\r\n");
        chunked(cases, "trailer smuggling a length", "d\r\n" + CREDIT + "\r\n0\r\nContent-Length: 5\r\n\r\n");
        // How long the body is.
        framed(
                cases,
                "Content-Length and Transfer-Encoding",
                "Content-Length: 13\r\nTransfer-Encoding: chunked\r\n",
                BODY);
        framed(
                cases,
                "Transfer-Encoding and Content-Length",
                "Transfer-Encoding: chunked\r\nContent-Length: 13\r\n",
                BODY);
        framed(
                cases,
                "Transfer-Encoding with Content-Length 0",
                "Transfer-Encoding: chunked\r\nContent-Length: 0\r\n",
                BODY);
        framed(cases, "two different Content-Lengths", "Content-Length: 13\r\nContent-Length: 12\r\n", BODY);
        framed(cases, "two Content-Lengths spelt in two cases", "Content-Length: 13\r\ncontent-LENGTH: 12\r\n", BODY);
        framed(cases, "the same Content-Length twice", "Content-Length: 13\r\nContent-Length: 13\r\n", BODY);
        framed(cases, "a Content-Length list", "Content-Length: 13, 13\r\n", BODY);
        framed(cases, "Content-Length with a plus sign", "Content-Length: +13\r\n", BODY);
        framed(cases, "negative Content-Length", "Content-Length: -13\r\n", BODY);
        framed(cases, "Content-Length in hex", "Content-Length: 0xd\r\n", BODY);
        framed(cases, "huge Content-Length", "Content-Length: 99999999999999999999999\r\n", BODY);
        framed(cases, "Transfer-Encoding twice", "Transfer-Encoding: chunked\r\nTransfer-Encoding: chunked\r\n", BODY);
        framed(cases, "Transfer-Encoding list", "Transfer-Encoding: gzip, chunked\r\n", BODY);
        framed(cases, "Transfer-Encoding not chunked", "Transfer-Encoding: xchunked\r\n", BODY);
        framed(cases, "Transfer-Encoding identity", "Transfer-Encoding: identity\r\nContent-Length: 13\r\n", BODY);
        framed(cases, "space before the colon of Content-Length", "Content-Length : 13\r\n", HEAD);
        framed(cases, "space before the colon of Transfer-Encoding", "Transfer-Encoding : chunked\r\n", HEAD);
        // Header lines.
        framed(
                cases,
                "obs-fold of Transfer-Encoding",
                "Transfer-Encoding:\r\n chunked\r\nContent-Length: 13\r\n",
                HEAD);
        framed(cases, "obs-fold of Content-Length", "Content-Length:\r\n\t13\r\n", HEAD);
        framed(cases, "obs-fold of another header", "X-Note: one\r\n two\r\nContent-Length: 13\r\n", HEAD);
        framed(cases, "header line ended by LF alone", "X-Note: one\nContent-Length: 13\r\n", HEAD);
        framed(cases, "header line with a CR alone", "X-Note: one\rtwo\r\nContent-Length: 13\r\n", HEAD);
        framed(cases, "Content-Length line ended by LF alone", "Content-Length: 13\n", HEAD);
        cases.add(Arguments.of(
                "request line ended by LF alone",
                ascii("POST /admin/accounts/ACCOUNT/credits HTTP/1.1\nHost: x\r\nX-ApiKey: ADMIN\r\n"
                        + "Content-Type: application/json\r\nContent-Length: 13\r\n\r\n" + CREDIT),
                HEAD));
        cases.add(Arguments.of(
                "every line ended by LF alone",
                ascii("POST /admin/accounts/ACCOUNT/credits HTTP/1.1\nHost: x\nX-ApiKey: ADMIN\n"
                        + "Content-Type: application/json\nContent-Length: 13\n\n" + CREDIT),
                HEAD));
        return cases;
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("malformedRequests")
    void aMalformedRequestIsAnswered400AndClosedAndNothingBehindItRuns(String name, byte[] malformed, String code)
            throws Exception {
        long balance = balance();

        RawHttp.Exchange exchange = RawHttp.exchange(port(), concat(resolve(malformed), pipelinedCredit(1000)));

        assertThat(exchange.statuses()).as(exchange.text()).containsExactly(400);
        assertThat(exchange.text())
                .contains("application/problem+json")
                .contains("\"code\":\"" + code + "\"")
                .contains("Connection: close");
        assertThat(exchange.closed()).as("closed within a second").isTrue();
        assertThat(balance()).as("no credit applied").isEqualTo(balance);
    }

    @Test
    void aBadChunkIsAnsweredInvalidBody() throws Exception {
        RawHttp.Exchange exchange = RawHttp.exchange(port(), resolve(chunkedCredit("d\r\n" + CREDIT + "AB0\r\n\r\n")));

        assertThat(exchange.text()).contains("\"code\":\"invalid_body\"");
    }

    @Test
    void aWellFormedChunkedCreditIsServedAndTheRequestBehindItToo() throws Exception {
        long balance = balance();
        byte[] chunkedCredit = chunkedCredit("0004\r\n{\"am\r\n9\r\nount\": 1}\r\n00\r\n\r\n");
        byte[] balanceRead = ascii("GET /admin/accounts/ACCOUNT HTTP/1.1\r\nHost: x\r\nX-ApiKey: ADMIN\r\n\r\n");

        RawHttp.Exchange exchange = RawHttp.exchange(port(), resolve(concat(chunkedCredit, balanceRead)));

        assertThat(exchange.statuses()).as(exchange.text()).containsExactly(201, 200);
        assertThat(exchange.closed()).as("kept open for more requests").isFalse();
        assertThat(balance()).isEqualTo(balance + 1);
    }

    @Test
    @SuppressWarnings("StringConcatToTextBlock") // the exact CRLF bytes read better as escapes
    void connectionCloseFromTheClientClosesTheConnectionAfterTheResponse() throws Exception {
        byte[] live = ascii("GET /health/live HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"
                + "GET /health/live HTTP/1.1\r\nHost: x\r\n\r\n");

        RawHttp.Exchange exchange = RawHttp.exchange(port(), live);

        assertThat(exchange.statuses()).containsExactly(200);
        assertThat(exchange.closed()).as("closed within a second").isTrue();
    }

    @Test
    void aBodyTooLargeIsAnswered413AndTheConnectionClosed() throws Exception {
        long balance = balance();
        String large = "{\"amount\":1,\"reason\":\"" + "r".repeat(Requests.MAX_BODY_BYTES) + "\"}";
        byte[] credit = ascii("POST /admin/accounts/ACCOUNT/credits HTTP/1.1\r\nHost: x\r\nX-ApiKey: ADMIN\r\n"
                + "Content-Type: application/json\r\nContent-Length: " + large.length() + "\r\n\r\n" + large);

        RawHttp.Exchange exchange = RawHttp.exchange(port(), concat(resolve(credit), pipelinedCredit(1000)));

        assertThat(exchange.statuses()).containsExactly(413);
        assertThat(exchange.closed()).as("closed within a second").isTrue();
        assertThat(balance()).isEqualTo(balance);
    }

    @Test
    void aResponseSentBeforeTheBodyIsReadClosesTheConnectionAndTheBodyNeverRunsAsARequest() throws Exception {
        long balance = balance();
        String smuggled = new String(pipelinedCredit(1000), StandardCharsets.ISO_8859_1);
        byte[] refused = ascii("POST /admin/accounts/ACCOUNT/credits HTTP/1.1\r\nHost: x\r\nX-ApiKey: wrong-key\r\n"
                + "Content-Type: application/json\r\nContent-Length: " + smuggled.length() + "\r\n\r\n" + smuggled);

        RawHttp.Exchange exchange = RawHttp.exchange(port(), concat(resolve(refused), pipelinedCredit(1000)));

        assertThat(exchange.statuses()).containsExactly(401);
        assertThat(exchange.closed()).as("closed within a second").isTrue();
        assertThat(balance()).isEqualTo(balance);
    }

    @Test
    void aRequestWithConnectionCloseAndAnUnreadBodyNeverRunsItsBodyAsARequest() throws Exception {
        long balance = balance();
        String smuggled = new String(pipelinedCredit(1000), StandardCharsets.ISO_8859_1);
        byte[] request = ascii("GET /health/live HTTP/1.1\r\nHost: x\r\nConnection: close\r\n" + "Content-Length: "
                + smuggled.length() + "\r\n\r\n" + smuggled);

        RawHttp.Exchange exchange = RawHttp.exchange(port(), resolve(request));

        assertThat(exchange.statuses()).containsExactly(200);
        assertThat(exchange.closed()).isTrue();
        assertThat(balance()).isEqualTo(balance);
    }

    private static void chunked(List<Arguments> cases, String name, String body) {
        cases.add(Arguments.of(name, chunkedCredit(body), BODY));
    }

    private static void framed(List<Arguments> cases, String name, String framingHeaders, String code) {
        cases.add(Arguments.of(
                name,
                ascii("POST /admin/accounts/ACCOUNT/credits HTTP/1.1\r\nHost: x\r\nX-ApiKey: ADMIN\r\n"
                        + "Content-Type: application/json\r\n" + framingHeaders + "\r\n" + CREDIT),
                code));
    }

    private static byte[] chunkedCredit(String body) {
        return ascii("POST /admin/accounts/ACCOUNT/credits HTTP/1.1\r\nHost: x\r\nX-ApiKey: ADMIN\r\n"
                + "Content-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n" + body);
    }

    /** A well-formed credit, which must never run behind a malformed request. */
    private static byte[] pipelinedCredit(long amount) {
        String body = "{\"amount\":" + amount + "}";
        return resolve(ascii("POST /admin/accounts/ACCOUNT/credits HTTP/1.1\r\nHost: x\r\nX-ApiKey: ADMIN\r\n"
                + "Content-Type: application/json\r\nContent-Length: " + body.length() + "\r\n\r\n" + body));
    }

    /** Puts the account id and the admin key into a request written with placeholders. */
    private static byte[] resolve(byte[] request) {
        return ascii(new String(request, StandardCharsets.ISO_8859_1)
                .replace("ACCOUNT", accountId)
                .replace("ADMIN", TestNode.ADMIN_KEY));
    }

    private static long balance() {
        Reply account = admin.send("GET", "/admin/accounts/" + accountId, null, Map.of());
        assertThat(account.status()).as(account.toString()).isEqualTo(200);
        return account.json().get("balance").asLong();
    }

    private static int port() {
        return node.application().port();
    }

    private static byte[] concat(byte[] first, byte[] second) {
        byte[] both = new byte[first.length + second.length];
        System.arraycopy(first, 0, both, 0, first.length);
        System.arraycopy(second, 0, both, first.length, second.length);
        return both;
    }

    private static byte[] ascii(String text) {
        return text.getBytes(StandardCharsets.ISO_8859_1);
    }
}
