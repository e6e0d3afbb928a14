package dev.pulseledger.http;

/**
 * The failed authentications a client address may still make: {@link Access} asks it before a key
 * lookup. Implemented where the buckets live ({@code ratelimit}), so http does not depend on them.
 */
public interface FailedAuthCount {
    /** True when {@code address} has used up its failures for now. */
    boolean exhausted(String address);

    /** Counts one failed authentication from {@code address}; false when its allowance was used up. */
    boolean failed(String address);

    /** Gives back one failure counted for {@code address}: the key it was counted for turned out to exist. */
    void forgive(String address);

    /** Whole seconds until {@code address} may try again. */
    long retryAfterSeconds(String address);
}
