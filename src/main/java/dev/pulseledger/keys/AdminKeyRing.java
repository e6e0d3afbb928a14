package dev.pulseledger.keys;

import java.util.Optional;

/** Who an admin key hash belongs to, as of the access feed's last read; empty for no live admin key. */
@FunctionalInterface
public interface AdminKeyRing {
    Optional<Actor> actor(String keyHash);
}
