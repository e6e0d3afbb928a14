package dev.pulseledger.ledger.db;

import java.util.Set;

/**
 * A round that may not wait found these accounts locked by another transaction (another node's round, an
 * operator's session, a paused process) and wrote nothing; the writer moves them out of its batch.
 */
public final class AccountsBusyException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    // Never serialized: it lives from the store to the writer, on one thread.
    private final transient Set<String> accountIds;

    public AccountsBusyException(Set<String> accountIds) {
        super("Accounts locked elsewhere: " + accountIds.size(), null, false, false);
        this.accountIds = Set.copyOf(accountIds);
    }

    public Set<String> accountIds() {
        return accountIds;
    }
}
