package dev.pulseledger.keys;

/** What a presented key turned out to be: the admin's, a caller's, or refused for a reason. */
public sealed interface KeyCheck {
    /** An admin key of an operator who is not disabled. */
    record Admin(Actor actor) implements KeyCheck {}

    /** A usable caller key of an active account. */
    record OfCaller(Caller caller) implements KeyCheck {}

    /** Not a key that may call anything; {@code reason} says why. */
    record Refused(Reason reason) implements KeyCheck {}

    /** Why a key was refused. */
    enum Reason {
        /** No key was sent. */
        MISSING,
        /** The key is malformed, unknown, revoked or expired. */
        UNKNOWN,
        /** A usable caller key whose account is suspended. */
        ACCOUNT_SUSPENDED
    }
}
