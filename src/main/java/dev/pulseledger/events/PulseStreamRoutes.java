package dev.pulseledger.events;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.pulseledger.http.Requests;
import dev.pulseledger.http.RouteTable;
import dev.pulseledger.keys.Authenticator;
import dev.pulseledger.keys.Caller;
import io.helidon.http.HeaderName;
import io.helidon.http.HeaderNames;
import io.helidon.webserver.http.ServerRequest;
import io.helidon.webserver.http.ServerResponse;
import java.util.Optional;

/**
 * {@code GET /api/pulse/stream}: public service status changes as Server-Sent Events, with
 * heartbeats and resumption by {@code Last-Event-ID}.
 */
public final class PulseStreamRoutes {
    public static final String PATH = "/api/pulse/stream";

    static final HeaderName LAST_EVENT_ID = HeaderNames.create("Last-Event-ID");

    private final Authenticator authenticator;
    private final EventStreams streams;

    public PulseStreamRoutes(Authenticator authenticator, EventStreams streams) {
        this.authenticator = authenticator;
        this.streams = streams;
    }

    public void register(RouteTable routes) {
        routes.get(PATH, this::stream);
    }

    private void stream(ServerRequest req, ServerResponse res) {
        Caller caller = authenticator.caller(req);
        StreamPosition position = StreamPosition.ofEvents(Requests.header(req, LAST_EVENT_ID));
        streams.serve(req, res, caller, position, PulseStreamRoutes::publicStatusChange, Optional::empty);
    }

    /** The frame of a status change of a service callers see, without the flag that says so. */
    static Optional<StreamFrame> publicStatusChange(StoredEvent event) {
        if (event.type() != EventType.SERVICE_STATUS_CHANGED) {
            return Optional.empty();
        }
        ObjectNode envelope = StreamFrame.envelope(event);
        ObjectNode data = (ObjectNode) envelope.get("data");
        if (data == null || !data.path(NewEvent.PUBLIC).asBoolean(false)) {
            return Optional.empty();
        }
        data.remove(NewEvent.PUBLIC);
        return Optional.of(StreamFrame.of(event, envelope));
    }
}
