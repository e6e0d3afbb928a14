package dev.pulseledger.admin;

import dev.pulseledger.accounts.Account;
import dev.pulseledger.accounts.AccountStore;
import dev.pulseledger.http.Requests;
import dev.pulseledger.http.Responses;
import dev.pulseledger.http.RouteTable;
import dev.pulseledger.ledger.read.ReservationQueries;
import dev.pulseledger.ledger.web.LedgerProblems;
import dev.pulseledger.ledger.web.ReservationRoutes;
import dev.pulseledger.ledger.write.LedgerWriter;
import io.helidon.webserver.http.ServerRequest;
import io.helidon.webserver.http.ServerResponse;

/** The operator's view of an account's reservations (CONTRACT §8), filtered and paged like the caller's. */
public final class ReservationAdminRoutes {
    private final AccountStore accounts;
    private final LedgerWriter ledger;
    private final ReservationQueries reservations;

    public ReservationAdminRoutes(AccountStore accounts, LedgerWriter ledger, ReservationQueries reservations) {
        this.accounts = accounts;
        this.ledger = ledger;
        this.reservations = reservations;
    }

    public void register(RouteTable routes) {
        routes.get("/admin/accounts/{accountId}/reservations", this::list);
    }

    private void list(ServerRequest req, ServerResponse res) {
        Account account =
                accounts.find(Requests.pathParam(req, "accountId")).orElseThrow(LedgerProblems::accountNotFound);
        Responses.ok(res, ReservationRoutes.page(req, reservations, ledger, account.id()));
    }
}
