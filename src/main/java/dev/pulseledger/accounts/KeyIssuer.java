package dev.pulseledger.accounts;

import dev.pulseledger.keys.ApiKey;
import dev.pulseledger.keys.KeyBudget;
import dev.pulseledger.keys.KeyStore;
import dev.pulseledger.keys.Secrets;
import dev.pulseledger.store.Ids;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

/** Issues caller keys for the operator API and the console alike: the secret exists only in the result. */
public final class KeyIssuer {
    private final KeyStore keys;
    private final AccountStore accounts;

    public KeyIssuer(KeyStore keys, AccountStore accounts) {
        this.keys = keys;
        this.accounts = accounts;
    }

    /** Outcome of issuing a key. */
    public sealed interface Issue {
        /** The stored key and its secret, which is shown this once and never again. */
        record Issued(ApiKey key, String secret) implements Issue {}

        record AccountNotFound() implements Issue {}

        record LimitReached() implements Issue {}
    }

    /** Issues a key with {@code budgets}, whose pools the caller has checked the account has. */
    public Issue issue(
            String accountId, String name, Optional<Instant> expiresAt, List<KeyBudget> budgets, Instant now) {
        if (accounts.find(accountId).isEmpty()) {
            return new Issue.AccountNotFound();
        }
        if (keys.listForAccount(accountId).size() >= KeyStore.MAX_KEYS_PER_ACCOUNT) {
            return new Issue.LimitReached();
        }
        String secret = Secrets.newCallerKey();
        ApiKey key =
                new ApiKey(Ids.key(), accountId, name, Secrets.displayPrefix(secret), now, expiresAt, Optional.empty());
        keys.create(key, Secrets.sha256Hex(secret), budgets);
        return new Issue.Issued(key, secret);
    }
}
