package dev.pulseledger.http.edge;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** The framing follows requests however the bytes are split across reads, and never reads past one. */
class RequestFramingTest {
    private static final int MAX_HEAD_BYTES = 8192;

    @SuppressWarnings("StringConcatToTextBlock") // the exact CRLF bytes read better as escapes
    private static final String CHUNKED = "POST /c HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n"
            + "4\r\n{\"am\r\n0009\r\nount\": 1}\r\n0\r\n\r\n";

    private static final String LENGTH =
            "POST /l HTTP/1.1\r\nHost: x\r\nContent-Length: 13\r\nConnection: close\r\n\r\n{\"amount\": 1}";
    private static final String NO_BODY = "GET /g HTTP/1.1\r\nHost: x\r\n\r\n";

    @Test
    void pipelinedRequestsEndExactlyWhereTheyEndAtEverySplitOfTheBytes() {
        byte[] stream = ascii(CHUNKED + LENGTH + NO_BODY);
        int[] ends = {CHUNKED.length(), CHUNKED.length() + LENGTH.length(), stream.length};
        for (int split = 1; split < stream.length; split++) {
            RequestFraming framing = new RequestFraming(MAX_HEAD_BYTES);
            int position = 0;
            for (int i = 0; i < ends.length; i++) {
                position = scanToEnd(framing, stream, position, split);
                assertThat(position).as("split at " + split + ", request " + i).isEqualTo(ends[i]);
                assertThat(framing.fault()).isEmpty();
                assertThat(framing.closeRequested()).isEqualTo(i == 1);
                framing.next();
            }
        }
    }

    @Test
    void aChunkWithoutItsCrlfStopsAtItsFirstWrongByteWhereverTheBytesAreSplit() {
        String request = "POST /c HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello";
        byte[] stream = ascii(request + "AB0\r\n\r\n" + NO_BODY);
        for (int split = 1; split < stream.length; split++) {
            RequestFraming framing = new RequestFraming(MAX_HEAD_BYTES);

            int position = scanToEnd(framing, stream, 0, split);

            assertThat(position).as("split at " + split).isEqualTo(request.length());
            assertThat(framing.fault()).contains(RequestFraming.Fault.BODY);
            assertThat(framing.complete()).isFalse();
        }
    }

    /** Scans the stream in pieces that break at {@code split}, as separate reads would, until the request ends. */
    private static int scanToEnd(RequestFraming framing, byte[] stream, int from, int split) {
        int position = from;
        while (position < stream.length
                && !framing.complete()
                && framing.fault().isEmpty()) {
            int to = position < split ? split : stream.length;
            position = framing.scan(stream, position, to);
        }
        return position;
    }

    private static byte[] ascii(String text) {
        return text.getBytes(StandardCharsets.ISO_8859_1);
    }
}
