package dev.pulseledger.tokens;

import dev.pulseledger.http.Times;
import java.time.Instant;
import java.util.List;

/** The JSON shapes of the caller's token API (CONTRACT §3). */
final class TokenJson {
    private TokenJson() {}

    record SpentBody(String spendingId, long amount, long balance, String status, String createdAt) {}

    record SpendingBody(String spendingId, long amount, String status, String createdAt, String revertedAt) {}

    record RevertedBody(
            String spendingId, long amount, String status, String createdAt, String revertedAt, long balance) {}

    record BalanceBody(long balance) {}

    record BalanceAtBody(long balance, String at) {}

    record SpendingPage(List<SpendingBody> data, String nextCursor) {}

    static SpentBody spent(SpendResult.Spent spent) {
        Spending spending = spent.spending();
        return new SpentBody(spending.id(), spending.amount(), spent.balance(), "active", time(spending.createdAt()));
    }

    static SpendingBody spending(Spending spending) {
        return new SpendingBody(
                spending.id(),
                spending.amount(),
                status(spending),
                time(spending.createdAt()),
                spending.revertedAt().map(TokenJson::time).orElse(null));
    }

    static RevertedBody reverted(RevertResult.Reverted reverted) {
        Spending spending = reverted.spending();
        return new RevertedBody(
                spending.id(),
                spending.amount(),
                status(spending),
                time(spending.createdAt()),
                spending.revertedAt().map(TokenJson::time).orElse(null),
                reverted.balance());
    }

    private static String status(Spending spending) {
        return spending.reverted() ? "reverted" : "active";
    }

    private static String time(Instant instant) {
        return Times.format(instant);
    }
}
