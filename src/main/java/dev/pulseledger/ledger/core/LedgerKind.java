package dev.pulseledger.ledger.core;

/** The kinds of ledger line, with their names on the wire and in the database. */
public enum LedgerKind {
    CREDIT("credit"),
    ALLOWANCE("allowance"),
    EXPIRE("expire"),
    SPEND("spend"),
    REVERT("revert"),
    HOLD("hold"),
    RELEASE("release"),
    SLA_CREDIT("sla_credit");

    private final String wire;

    LedgerKind(String wire) {
        this.wire = wire;
    }

    public String wire() {
        return wire;
    }
}
