package dev.pulseledger.admin;

import dev.pulseledger.accounts.Account;
import dev.pulseledger.accounts.LedgerEntry;
import dev.pulseledger.accounts.PlanJson;
import dev.pulseledger.http.Times;
import dev.pulseledger.keys.ApiKey;
import java.util.LinkedHashMap;
import java.util.Map;

/** JSON shapes of accounts, keys and ledger entries in the operator API. */
final class AccountJson {
    private AccountJson() {}

    static Map<String, Object> account(Account account) {
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("id", account.id());
        body.put("name", account.name());
        body.put("planId", account.planId());
        body.put("balance", account.balance());
        body.put("status", account.status().wire());
        body.put("createdAt", Times.format(account.createdAt()));
        body.put("currentPeriod", PlanJson.period(account.currentPeriod()));
        return body;
    }

    static Map<String, Object> key(ApiKey key) {
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("id", key.id());
        body.put("accountId", key.accountId());
        body.put("name", key.name());
        body.put("prefix", key.prefix());
        body.put("createdAt", Times.format(key.createdAt()));
        body.put("expiresAt", key.expiresAt().map(Times::format).orElse(null));
        body.put("revokedAt", key.revokedAt().map(Times::format).orElse(null));
        return body;
    }

    static Map<String, Object> ledgerEntry(LedgerEntry entry) {
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("kind", entry.kind());
        body.put("amount", entry.amount());
        body.put("balanceAfter", entry.balanceAfter());
        body.put("spendingId", entry.spendingId().orElse(null));
        body.put("grantId", entry.grantId().orElse(null));
        body.put("reason", entry.reason().orElse(null));
        body.put("createdAt", Times.format(entry.createdAt()));
        return body;
    }
}
