package dev.pulseledger.events;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.pulseledger.http.Json;
import dev.pulseledger.http.Requests;
import dev.pulseledger.http.RouteTable;
import dev.pulseledger.http.Times;
import dev.pulseledger.keys.Caller;
import io.helidon.webserver.http.ServerRequest;
import io.helidon.webserver.http.ServerResponse;
import java.time.Instant;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;

/**
 * {@code GET /api/tokens/stream}: the caller's own account as Server-Sent Events (CONTRACT §11): its
 * events from the outbox, and {@code balance.changed} with the latest balance, at most once a second
 * however many changes that second saw. Resumable with {@code Last-Event-ID}; ends when the key stops
 * working.
 */
public final class AccountStreamRoutes {
    public static final String PATH = "/api/tokens/stream";
    public static final String BALANCE_CHANGED = "balance.changed";

    /** The outbox events that concern one account, by their wire names; each carries {@code accountId}. */
    static final Set<String> ACCOUNT_EVENTS = Set.of(
            "balance.low",
            "allowance.renewed",
            "credits.expired",
            "reservation.expired",
            "sla.credited",
            "key.budget_warning",
            "key.budget_exhausted",
            "plan.changed",
            "plan.change_scheduled");

    private final EventStreams streams;
    private final Function<String, Optional<NewestLine>> newestLine;

    /** The newest ledger line of an account: where its balance stands, and when it got there. */
    public record NewestLine(long sequence, long balance, Instant at) {}

    /** {@code newestLine} reads an account's newest ledger line (the ledger's history, wired by the module). */
    public AccountStreamRoutes(EventStreams streams, Function<String, Optional<NewestLine>> newestLine) {
        this.streams = streams;
        this.newestLine = newestLine;
    }

    public void register(RouteTable routes) {
        routes.get(PATH, this::stream);
    }

    private void stream(ServerRequest req, ServerResponse res) {
        Caller caller = RouteTable.caller(req);
        StreamPosition position = StreamPosition.ofAccount(Requests.header(req, PulseStreamRoutes.LAST_EVENT_ID));
        String accountId = caller.accountId();
        streams.serve(
                req,
                res,
                caller,
                position,
                event -> ofAccount(event, accountId),
                () -> newestLine.apply(accountId).map(AccountStreamRoutes::balanceChanged));
    }

    /** The frame of an event about the account, or empty for any other event. */
    static Optional<StreamFrame> ofAccount(StoredEvent event, String accountId) {
        if (!ACCOUNT_EVENTS.contains(event.type().wire())) {
            return Optional.empty();
        }
        ObjectNode envelope = StreamFrame.envelope(event);
        return StreamFrame.dataText(envelope, "accountId")
                .filter(accountId::equals)
                .map(owner -> StreamFrame.of(event));
    }

    /** {@code balance.changed}: the balance the account's newest ledger line left, in the envelope's shape. */
    static StreamFrame balanceChanged(NewestLine head) {
        BalanceChanged envelope =
                new BalanceChanged(BALANCE_CHANGED, Times.format(head.at()), new BalanceChanged.Data(head.balance()));
        return new StreamFrame(0, head.sequence(), BALANCE_CHANGED, Json.bytes(envelope));
    }

    /** The envelope of {@code balance.changed}: made on the stream, never stored, so it has no id. */
    private record BalanceChanged(String type, String createdAt, BalanceChanged.Data data) {
        record Data(long balance) {}
    }
}
