package dev.pulseledger.ledger.core;

/**
 * What one spending or reservation ({@code spendingId} names either) drew from one grant, and how much of
 * it has gone back: returned by reverts, or for a reservation, moved on when it ended.
 */
public record Allocation(String spendingId, String grantId, long amount, long returned) {
    public Allocation {
        if (amount <= 0 || returned < 0 || returned > amount) {
            throw new IllegalStateException("An allocation does not add up: " + spendingId + "/" + grantId);
        }
    }

    long unreturned() {
        return amount - returned;
    }

    /** {@code tokens} more of it are returned. */
    Allocation returning(long tokens) {
        return new Allocation(spendingId, grantId, amount, returned + tokens);
    }
}
