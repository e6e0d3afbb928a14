package dev.pulseledger.events;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.pulseledger.http.Requests;
import dev.pulseledger.http.RouteTable;
import dev.pulseledger.keys.Caller;
import io.helidon.http.HeaderName;
import io.helidon.http.HeaderNames;
import io.helidon.webserver.http.ServerRequest;
import io.helidon.webserver.http.ServerResponse;
import java.util.EnumSet;
import java.util.Optional;
import java.util.Set;

/**
 * {@code GET /api/pulse/stream}: public service status changes and incidents as Server-Sent Events, with
 * heartbeats and resumption by {@code Last-Event-ID}.
 */
public final class PulseStreamRoutes {
    public static final String PATH = "/api/pulse/stream";

    static final HeaderName LAST_EVENT_ID = HeaderNames.create("Last-Event-ID");

    private final EventStreams streams;

    public PulseStreamRoutes(EventStreams streams) {
        this.streams = streams;
    }

    public void register(RouteTable routes) {
        routes.get(PATH, this::stream);
    }

    private void stream(ServerRequest req, ServerResponse res) {
        Caller caller = RouteTable.caller(req);
        StreamPosition position = StreamPosition.ofEvents(Requests.header(req, LAST_EVENT_ID));
        streams.serve(req, res, caller, position, PulseStreamRoutes::publicStatusChange, Optional::empty);
    }

    /** What the pulse stream carries: status changes and incidents, for callers to see. */
    private static final Set<EventType> TYPES =
            EnumSet.of(EventType.SERVICE_STATUS_CHANGED, EventType.INCIDENT_CREATED, EventType.INCIDENT_UPDATED);

    /** The frame of a status change or incident callers see, without the flag that says so. */
    static Optional<StreamFrame> publicStatusChange(StoredEvent event) {
        if (!TYPES.contains(event.type())) {
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
