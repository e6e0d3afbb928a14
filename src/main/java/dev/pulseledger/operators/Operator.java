package dev.pulseledger.operators;

import dev.pulseledger.keys.Role;
import java.time.Instant;
import java.util.Optional;

/** An operator as the API shows it: never their password hash or TOTP secret, only whether they are set. */
public record Operator(
        String id,
        String name,
        Optional<String> email,
        Role role,
        boolean hasPassword,
        boolean hasTotp,
        Instant createdAt,
        Optional<Instant> disabledAt) {

    public boolean disabled() {
        return disabledAt.isPresent();
    }
}
