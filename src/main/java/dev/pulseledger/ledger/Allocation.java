package dev.pulseledger.ledger;

/** What one spending drew from one grant, and how much of it a revert has returned. */
public record Allocation(String spendingId, String grantId, long amount, long returned) {
    public Allocation {
        if (amount <= 0 || returned < 0 || returned > amount) {
            throw new IllegalStateException("An allocation does not add up: " + spendingId + "/" + grantId);
        }
    }

    long unreturned() {
        return amount - returned;
    }

    Allocation returnedAll() {
        return new Allocation(spendingId, grantId, amount, amount);
    }
}
