package dev.pulseledger.ledger.core;

/** Where a grant's tokens came from: a period's allowance or an operator's credit. */
public enum GrantKind {
    ALLOWANCE("allowance"),
    CREDIT("credit");

    private final String wire;

    GrantKind(String wire) {
        this.wire = wire;
    }

    public String wire() {
        return wire;
    }

    public static GrantKind fromWire(String text) {
        return switch (text) {
            case "allowance" -> ALLOWANCE;
            case "credit" -> CREDIT;
            default -> throw new IllegalArgumentException("Unknown grant kind: " + text);
        };
    }
}
