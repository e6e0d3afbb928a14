package dev.pulseledger.accounts;

import java.util.Locale;

/** Whether an account's callers may use the caller API. */
public enum AccountStatus {
    ACTIVE,
    SUSPENDED;

    public String wire() {
        return name().toLowerCase(Locale.ROOT);
    }

    public static AccountStatus fromWire(String text) {
        return valueOf(text.toUpperCase(Locale.ROOT));
    }
}
