package dev.pulseledger.admin;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonUnwrapped;
import dev.pulseledger.accounts.Account;
import dev.pulseledger.accounts.LedgerEntry;
import dev.pulseledger.accounts.PlanJson;
import dev.pulseledger.http.Times;
import dev.pulseledger.keys.ApiKey;
import dev.pulseledger.keys.KeyBudget;
import dev.pulseledger.ledger.web.KeyBudgetJson;
import java.util.List;
import org.jspecify.annotations.Nullable;

/** JSON shapes of accounts, keys, credits and ledger entries in the operator API. */
final class AccountJson {
    private AccountJson() {}

    record AccountBody(
            String id,
            String name,
            String planId,
            long balance,
            String status,
            String createdAt,
            PlanJson.@Nullable PeriodBody currentPeriod,
            @JsonInclude(JsonInclude.Include.NON_NULL) PlanJson.@Nullable PendingChangeBody pendingChange) {}

    /** A key as listed; {@code key} (the secret) is present only in the answer that creates it. */
    record KeyBody(
            String id,
            String accountId,
            String name,
            String prefix,
            String createdAt,
            @Nullable String expiresAt,
            @Nullable String revokedAt,
            List<KeyBudgetJson.BudgetBody> budgets) {}

    /** A new key with its secret, shown this once: the key's fields, then {@code key}. */
    record NewKeyBody(@JsonUnwrapped KeyBody details, String key) {}

    record LedgerEntryBody(
            String kind,
            long amount,
            long balanceAfter,
            @Nullable String spendingId,
            @Nullable String reservationId,
            @Nullable String grantId,
            @Nullable String reason,
            String createdAt) {}

    record CreditBody(
            String accountId,
            long amount,
            String reason,
            @Nullable String expiresAt,
            long balance,
            String createdAt) {}

    static AccountBody account(Account account) {
        return new AccountBody(
                account.id(),
                account.name(),
                account.planId(),
                account.balance(),
                account.status().wire(),
                Times.format(account.createdAt()),
                PlanJson.PeriodBody.of(account.currentPeriod()),
                PlanJson.PendingChangeBody.of(account.pendingChange()));
    }

    static KeyBody key(ApiKey key, List<KeyBudget> budgets) {
        return new KeyBody(
                key.id(),
                key.accountId(),
                key.name(),
                key.prefix(),
                Times.format(key.createdAt()),
                key.expiresAt().map(Times::format).orElse(null),
                key.revokedAt().map(Times::format).orElse(null),
                budgets.stream().map(KeyBudgetJson::budget).toList());
    }

    static NewKeyBody newKey(ApiKey key, List<KeyBudget> budgets, String secret) {
        return new NewKeyBody(key(key, budgets), secret);
    }

    /** A line's subject is a spending, or a reservation for holds, releases and what their returns expired. */
    static LedgerEntryBody ledgerEntry(LedgerEntry entry) {
        boolean reservation =
                entry.spendingId().filter(id -> id.startsWith("rsv_")).isPresent();
        return new LedgerEntryBody(
                entry.kind(),
                entry.amount(),
                entry.balanceAfter(),
                reservation ? null : entry.spendingId().orElse(null),
                reservation ? entry.spendingId().orElse(null) : null,
                entry.grantId().orElse(null),
                entry.reason().orElse(null),
                Times.format(entry.createdAt()));
    }
}
