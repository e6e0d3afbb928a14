package dev.pulseledger.console;

import dev.pulseledger.accounts.Account;
import dev.pulseledger.accounts.AccountStatus;
import dev.pulseledger.accounts.AccountStore;
import dev.pulseledger.accounts.PlanStore;
import dev.pulseledger.console.ConsoleSessions.Session;
import dev.pulseledger.http.Queued;
import dev.pulseledger.http.Requests;
import dev.pulseledger.http.RouteTable;
import dev.pulseledger.ledger.core.LedgerCore;
import dev.pulseledger.ledger.core.OpenResult;
import dev.pulseledger.ledger.write.LedgerWriter;
import dev.pulseledger.store.Ids;
import dev.pulseledger.store.Page;
import io.helidon.webserver.http.ServerRequest;
import io.helidon.webserver.http.ServerResponse;
import java.time.Clock;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * The accounts list: search by id (exact) or by the start of the name, paged on the server by
 * keyset, and the form that creates an account.
 */
final class AccountListPages {
    static final int PAGE_SIZE = 25;
    private static final Pattern ACCOUNT_ID = Pattern.compile("acct_[0-9a-z]{26}");
    private static final int MAX_QUERY_LENGTH = 200;

    private final AccountStore accounts;
    private final AccountSearch search;
    private final PlanStore plans;
    private final LedgerWriter ledger;
    private final ConsoleView view;
    private final Clock clock;

    AccountListPages(
            AccountStore accounts,
            AccountSearch search,
            PlanStore plans,
            LedgerWriter ledger,
            ConsoleView view,
            Clock clock) {
        this.accounts = accounts;
        this.search = search;
        this.plans = plans;
        this.ledger = ledger;
        this.view = view;
        this.clock = clock;
    }

    void register(RouteTable routes, ConsoleGuard guard) {
        routes.get("/console/accounts", guard.page(this::list)).post("/console/accounts", guard.change(this::create));
    }

    private void list(ServerRequest req, ServerResponse res, Session session) {
        show(req, res, session, 200, Form.empty());
    }

    private void create(ServerRequest req, ServerResponse res, Session session, Form form) {
        Optional<String> name = form.text("name", 200, true);
        String planId = form.value("planId");
        Optional<Long> balance = form.wholeNumber("balance", 0, LedgerCore.MAX_BALANCE, false);
        if (form.valid()) {
            Account account = new Account(
                    Ids.account(),
                    name.orElseThrow(),
                    planId,
                    balance.orElse(0L),
                    AccountStatus.ACTIVE,
                    clock.instant());
            switch (Queued.call(() -> ledger.open(account))) {
                case OpenResult.Opened opened -> {
                    ConsoleGuard.redirect(
                            res, AccountPages.path(opened.account().id()) + "?done=created");
                    return;
                }
                case OpenResult.UnknownPlan unknown -> form.error("planId", "Choose one of the plans listed.");
            }
        }
        show(req, res, session, 422, form);
    }

    private void show(ServerRequest req, ServerResponse res, Session session, int status, Form form) {
        String query = Requests.query(req, "q").map(String::strip).orElse("");
        if (query.length() > MAX_QUERY_LENGTH) {
            query = query.substring(0, MAX_QUERY_LENGTH);
        }
        String after = Requests.query(req, "after").orElse("");
        Page<Account> page = find(query, after);
        Map<String, Object> model = new HashMap<>();
        model.put("query", query);
        model.put("accounts", page.items());
        model.put("next", page.nextPosition().orElse(""));
        model.put("firstPage", after.isEmpty());
        model.put("plans", plans.list());
        model.put("errors", form.errors());
        model.put("values", form.values());
        view.render(res, status, "accounts", Optional.of(session), model);
    }

    /** An id finds its account by the primary key; anything else is the start of a name. */
    private Page<Account> find(String query, String after) {
        if (ACCOUNT_ID.matcher(query).matches()) {
            return new Page<>(accounts.find(query).stream().toList(), Optional.empty());
        }
        if (query.isEmpty()) {
            return accounts.list(after, PAGE_SIZE);
        }
        return search.byNamePrefix(query, after, PAGE_SIZE);
    }
}
