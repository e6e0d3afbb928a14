package dev.pulseledger.ledger.web;

import dev.pulseledger.accounts.Pools;
import dev.pulseledger.http.Cursors;
import dev.pulseledger.http.JsonBody;
import dev.pulseledger.http.ProblemCode;
import dev.pulseledger.http.ProblemException;
import dev.pulseledger.http.Queued;
import dev.pulseledger.http.Requests;
import dev.pulseledger.http.Responses;
import dev.pulseledger.http.RouteTable;
import dev.pulseledger.keys.Caller;
import dev.pulseledger.ledger.core.Refusal;
import dev.pulseledger.ledger.core.ReleaseResult;
import dev.pulseledger.ledger.core.Reservation;
import dev.pulseledger.ledger.core.ReservationStatus;
import dev.pulseledger.ledger.core.ReserveResult;
import dev.pulseledger.ledger.core.SettleResult;
import dev.pulseledger.ledger.core.SpendRequest;
import dev.pulseledger.ledger.read.ReservationQueries;
import dev.pulseledger.ledger.write.LedgerWriter;
import dev.pulseledger.store.Page;
import io.helidon.webserver.http.ServerRequest;
import io.helidon.webserver.http.ServerResponse;
import java.time.Duration;
import java.util.Comparator;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;

/** The caller's reservations: hold tokens, settle the real amount, release, read and list (CONTRACT §8). */
public final class ReservationRoutes {
    static final long DEFAULT_EXPIRES_IN_SECONDS = 300;
    static final long MAX_EXPIRES_IN_SECONDS = 24 * 3600;
    private static final Pattern RESERVATION_ID = Pattern.compile("rsv_[0-9a-z]{26}");
    private static final Set<String> RESERVE_FIELDS = Set.of("amount", "expiresInSeconds", "pool");
    private static final Set<String> SETTLE_FIELDS = Set.of("amount");

    private final LedgerWriter ledger;
    private final ReservationQueries reservations;

    public ReservationRoutes(LedgerWriter ledger, ReservationQueries reservations) {
        this.ledger = ledger;
        this.reservations = reservations;
    }

    public void register(RouteTable routes) {
        routes.post("/api/tokens/reservations", this::reserve)
                .get("/api/tokens/reservations", this::list)
                .get("/api/tokens/reservations/{reservationId}", this::get)
                .post("/api/tokens/reservations/{reservationId}/settle", this::settle)
                .post("/api/tokens/reservations/{reservationId}/release", this::release);
    }

    private void reserve(ServerRequest req, ServerResponse res) {
        Caller caller = RouteTable.caller(req);
        JsonBody body = JsonBody.parse(Requests.jsonBody(req), RESERVE_FIELDS);
        long amount = body.requiredLong("amount", SpendRequest.MIN_AMOUNT, SpendRequest.MAX_AMOUNT);
        long seconds =
                body.optionalLong("expiresInSeconds", 1, MAX_EXPIRES_IN_SECONDS).orElse(DEFAULT_EXPIRES_IN_SECONDS);
        String pool = body.optionalString("pool", PoolParams.MAX_TEXT)
                .map(PoolParams::checked)
                .orElse(Pools.DEFAULT);
        Optional<String> idempotencyKey = TokenRoutes.idempotencyKey(req);
        ReserveResult result = Queued.call(() -> ledger.reserve(
                caller.accountId(),
                pool,
                amount,
                Duration.ofSeconds(seconds),
                idempotencyKey,
                Optional.of(caller.keyId())));
        switch (result) {
            case ReserveResult.Reserved reserved -> {
                if (reserved.replayed()) {
                    res.header(TokenRoutes.IDEMPOTENT_REPLAYED, "true");
                }
                res.header(
                        Responses.LOCATION,
                        "/api/tokens/reservations/" + reserved.reservation().id());
                Responses.json(res, 201, ReservationJson.changed(reserved.reservation(), reserved.balance()));
            }
            case Refusal refusal -> throw LedgerProblems.of(refusal);
        }
    }

    private void settle(ServerRequest req, ServerResponse res) {
        Caller caller = RouteTable.caller(req);
        String id = Requests.pathParam(req, "reservationId");
        Optional<Long> amount = Requests.optionalJsonBody(req)
                .flatMap(
                        body -> JsonBody.parse(body, SETTLE_FIELDS).optionalLong("amount", 0, SpendRequest.MAX_AMOUNT));
        if (!RESERVATION_ID.matcher(id).matches()) {
            throw LedgerProblems.reservationNotFound();
        }
        switch (Queued.call(() -> ledger.settle(caller.accountId(), id, amount))) {
            case SettleResult.Settled settled -> Responses.ok(res, ReservationJson.ended(settled.reservation()));
            case Refusal refusal -> throw LedgerProblems.of(refusal);
        }
    }

    private void release(ServerRequest req, ServerResponse res) {
        Caller caller = RouteTable.caller(req);
        String id = Requests.pathParam(req, "reservationId");
        if (!RESERVATION_ID.matcher(id).matches()) {
            throw LedgerProblems.reservationNotFound();
        }
        switch (Queued.call(() -> ledger.release(caller.accountId(), id))) {
            case ReleaseResult.Released released -> Responses.ok(res, ReservationJson.ended(released.reservation()));
            case Refusal refusal -> throw LedgerProblems.of(refusal);
        }
    }

    /** One reservation; one whose expiry has come is expired first, so a read never shows it held. */
    private void get(ServerRequest req, ServerResponse res) {
        Caller caller = RouteTable.caller(req);
        String id = Requests.pathParam(req, "reservationId");
        if (!RESERVATION_ID.matcher(id).matches()) {
            throw LedgerProblems.reservationNotFound();
        }
        Reservation read = reservations.find(caller.accountId(), id).orElseThrow(LedgerProblems::reservationNotFound);
        Reservation current = read.status() == ReservationStatus.HELD
                        && Queued.call(() -> ledger.catchUpIfDue(caller.accountId(), read.expiresAt()))
                ? reservations.find(caller.accountId(), id).orElseThrow(LedgerProblems::reservationNotFound)
                : read;
        Responses.ok(res, ReservationJson.reservation(current));
    }

    private void list(ServerRequest req, ServerResponse res) {
        Caller caller = RouteTable.caller(req);
        Responses.ok(res, page(req, reservations, ledger, caller.accountId()));
    }

    /**
     * A page of the account's reservations by the request's {@code status}, {@code limit} and
     * {@code cursor}; held ones whose expiry has come are expired first.
     */
    public static ReservationJson.ReservationPage page(
            ServerRequest req, ReservationQueries reservations, LedgerWriter ledger, String accountId) {
        Optional<ReservationStatus> status = Requests.query(req, "status")
                .map(text -> ReservationStatus.fromWire(text)
                        .orElseThrow(() -> new ProblemException(
                                ProblemCode.INVALID_STATUS,
                                "Query parameter 'status' must be held, settled, released or expired.")));
        int limit = Requests.pageSize(req);
        long before = Cursors.sequence(Requests.query(req, "cursor"), Long.MAX_VALUE);
        Page<Reservation> page = reservations.list(accountId, status, before, limit);
        Optional<Reservation> due = page.items().stream()
                .filter(r -> r.status() == ReservationStatus.HELD)
                .min(Comparator.comparing(Reservation::expiresAt));
        if (due.isPresent()
                && Queued.call(() -> ledger.catchUpIfDue(accountId, due.get().expiresAt()))) {
            page = reservations.list(accountId, status, before, limit);
        }
        return new ReservationJson.ReservationPage(
                page.items().stream().map(ReservationJson::reservation).toList(),
                page.nextPosition().map(Cursors::encode).orElse(null));
    }
}
