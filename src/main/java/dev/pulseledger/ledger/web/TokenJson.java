package dev.pulseledger.ledger.web;

import com.fasterxml.jackson.annotation.JsonInclude;
import dev.pulseledger.accounts.PlanJson;
import dev.pulseledger.http.Times;
import dev.pulseledger.ledger.core.RevertResult;
import dev.pulseledger.ledger.core.SpendResult;
import dev.pulseledger.ledger.core.Spending;
import dev.pulseledger.ledger.read.BalanceView;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.jspecify.annotations.Nullable;

/** The JSON shapes of the caller's token API (CONTRACT §3). */
public final class TokenJson {
    private TokenJson() {}

    record SpentBody(String spendingId, long amount, long balance, String status, String createdAt, String pool) {}

    record SpendingBody(
            String spendingId,
            String pool,
            long amount,
            long revertedAmount,
            String status,
            String createdAt,
            @Nullable String revertedAt) {}

    record RevertedBody(
            String spendingId,
            String pool,
            long amount,
            long revertedAmount,
            String status,
            String createdAt,
            @Nullable String revertedAt,
            long balance) {}

    record BalanceBody(
            long balance,
            @Nullable AllowanceBody allowance,
            long credits,
            long held,
            @Nullable ExpiryBody nextExpiry,
            @JsonInclude(JsonInclude.Include.NON_EMPTY) Map<String, PoolBody> pools,
            @JsonInclude(JsonInclude.Include.NON_NULL) PlanJson.@Nullable PendingChangeBody pendingChange) {}

    /** A named pool in the plain balance view (CONTRACT §14). */
    record PoolBody(long balance, long held, @Nullable AllowanceBody allowance) {}

    record AllowanceBody(long granted, long remaining, String periodStart, String periodEnd) {}

    record ExpiryBody(long amount, String at) {}

    record BalanceAtBody(long balance, String at) {}

    /** What a 402 adds to its problem: the balance now and what the spend needed. */
    record InsufficientBody(long balance, long required) {}

    /** What is left of a spending to revert, with 422 revert_exceeds_spending. */
    record UnrevertedBody(long unreverted) {}

    record SpendingPage(List<SpendingBody> data, @Nullable String nextCursor) {}

    static SpentBody spent(SpendResult.Spent spent) {
        Spending spending = spent.spending();
        return new SpentBody(
                spending.id(),
                spending.amount(),
                spent.balance(),
                "active",
                time(spending.createdAt()),
                spending.pool());
    }

    static SpendingBody spending(Spending spending) {
        return new SpendingBody(
                spending.id(),
                spending.pool(),
                spending.amount(),
                spending.revertedAmount(),
                spending.status(),
                time(spending.createdAt()),
                spending.revertedAt().map(TokenJson::time).orElse(null));
    }

    static RevertedBody reverted(RevertResult.Reverted reverted) {
        Spending spending = reverted.spending();
        return new RevertedBody(
                spending.id(),
                spending.pool(),
                spending.amount(),
                spending.revertedAmount(),
                spending.status(),
                time(spending.createdAt()),
                spending.revertedAt().map(TokenJson::time).orElse(null),
                reverted.balance());
    }

    /** The balance view of the default pool, with {@code pools} beside it, or of one named pool alone. */
    public static BalanceBody balance(BalanceView view) {
        Map<String, PoolBody> pools = new TreeMap<>();
        view.pools()
                .forEach((name, pool) -> pools.put(name, new PoolBody(pool.balance(), pool.held(), allowance(pool))));
        return new BalanceBody(
                view.balance(),
                allowance(view),
                view.credits(),
                view.held(),
                view.nextExpiry()
                        .map(e -> new ExpiryBody(e.amount(), time(e.at())))
                        .orElse(null),
                pools,
                PlanJson.PendingChangeBody.of(view.pendingChange()));
    }

    private static @Nullable AllowanceBody allowance(BalanceView view) {
        return view.period().isPresent() && (view.periodGranted() > 0 || view.allowanceRemaining() > 0)
                ? new AllowanceBody(
                        view.periodGranted(),
                        view.allowanceRemaining(),
                        time(view.period().get().start()),
                        time(view.period().get().end()))
                : null;
    }

    private static String time(Instant instant) {
        return Times.format(instant);
    }
}
