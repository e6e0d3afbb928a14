package dev.pulseledger.events;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.pulseledger.http.Json;
import java.nio.charset.StandardCharsets;
import java.util.Optional;

/**
 * One Server-Sent Event before its {@code id} line: where it comes from ({@code eventSequence}, the
 * outbox position, or {@code ledgerSequence}, the account's ledger position; 0 for the other), its
 * event name, and its data line.
 */
@SuppressWarnings("ArrayRecordComponent") // the data is written as is, never compared or changed
public record StreamFrame(long eventSequence, long ledgerSequence, String event, byte[] data) {
    /** The frame of an outbox event whose envelope the stream sends as it is. */
    static StreamFrame of(StoredEvent event) {
        return new StreamFrame(
                event.sequence(), 0, event.type().wire(), event.payload().getBytes(StandardCharsets.UTF_8));
    }

    /** The envelope of an outbox event, parsed, so a filter can read its {@code data}. */
    static ObjectNode envelope(StoredEvent event) {
        try {
            JsonNode envelope = Json.mapper().readTree(event.payload());
            return (ObjectNode) envelope;
        } catch (JsonProcessingException | ClassCastException e) {
            throw new IllegalStateException("The outbox holds an event that is not a JSON object: " + event.id(), e);
        }
    }

    /** The frame of an edited envelope of {@code event}. */
    static StreamFrame of(StoredEvent event, JsonNode envelope) {
        return new StreamFrame(event.sequence(), 0, event.type().wire(), Json.bytes(envelope));
    }

    /** A data field of the event as text, when it has one. */
    static Optional<String> dataText(ObjectNode envelope, String field) {
        JsonNode value = envelope.path("data").path(field);
        return value.isTextual() ? Optional.of(value.asText()) : Optional.empty();
    }

    /** The bytes on the wire, with the id the stream gives this frame. */
    byte[] render(String id) {
        byte[] head = ("id: " + id + "\nevent: " + event + "\ndata: ").getBytes(StandardCharsets.UTF_8);
        byte[] bytes = new byte[head.length + data.length + 2];
        System.arraycopy(head, 0, bytes, 0, head.length);
        System.arraycopy(data, 0, bytes, head.length, data.length);
        bytes[bytes.length - 2] = '\n';
        bytes[bytes.length - 1] = '\n';
        return bytes;
    }
}
