package dev.pulseledger.operators;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import dev.pulseledger.keys.Secrets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.Optional;

/**
 * Limits failed console sign-ins, per node, two ways. Per client address: at most {@link
 * #ADDRESS_FAILURES} failures in {@link #ADDRESS_WINDOW}, then that address waits. Per account (the
 * email as typed, known or not, so the limit says nothing about which emails exist): after {@link
 * #FREE_FAILURES} failures each attempt waits a delay that doubles per failure up to {@link
 * #MAX_ACCOUNT_DELAY} and then stays there. No one can lock an owner out for good: the delay never
 * exceeds a minute, a success clears it, an attempt with a valid TOTP code is not held by it, and the
 * admin-key sign-in is not limited by it at all.
 */
public final class SignInLimiter {
    public static final int ADDRESS_FAILURES = 10;
    public static final Duration ADDRESS_WINDOW = Duration.ofMinutes(15);
    public static final int FREE_FAILURES = 5;
    public static final Duration MAX_ACCOUNT_DELAY = Duration.ofMinutes(1);
    private static final Duration FORGET_ACCOUNT_AFTER = Duration.ofHours(1);
    private static final long MAX_TRACKED = 100_000;

    /** An account's failures since its last success, and when the last one was. */
    private record AccountFailures(int count, Instant last) {}

    private final Clock clock;
    private final Cache<String, Deque<Instant>> byAddress = Caffeine.newBuilder()
            .maximumSize(MAX_TRACKED)
            .expireAfterAccess(ADDRESS_WINDOW)
            .build();
    private final Cache<String, AccountFailures> byAccount = Caffeine.newBuilder()
            .maximumSize(MAX_TRACKED)
            .expireAfterAccess(FORGET_ACCOUNT_AFTER)
            .build();

    public SignInLimiter(Clock clock) {
        this.clock = clock;
    }

    /** How long this address must wait before its next attempt; empty when it may try now. */
    public Optional<Duration> addressWait(String address) {
        Deque<Instant> failures = byAddress.getIfPresent(address);
        if (failures == null) {
            return Optional.empty();
        }
        synchronized (failures) {
            Instant now = clock.instant();
            prune(failures, now);
            if (failures.size() < ADDRESS_FAILURES) {
                return Optional.empty();
            }
            return Optional.of(Duration.between(now, failures.peekFirst().plus(ADDRESS_WINDOW)));
        }
    }

    /** How long attempts on this account must wait now; empty when one may be made. */
    public Optional<Duration> accountWait(String email) {
        AccountFailures failures = byAccount.getIfPresent(accountKey(email));
        if (failures == null || failures.count() < FREE_FAILURES) {
            return Optional.empty();
        }
        Instant until = failures.last().plus(delay(failures.count()));
        Instant now = clock.instant();
        return now.isBefore(until) ? Optional.of(Duration.between(now, until)) : Optional.empty();
    }

    public void failed(String address, String email) {
        failedAddress(address);
        Instant now = clock.instant();
        byAccount
                .asMap()
                .merge(
                        accountKey(email),
                        new AccountFailures(1, now),
                        (old, one) -> new AccountFailures(old.count() + 1, now));
    }

    /** A failure that names no account (a wrong admin key): counted against the address only. */
    public void failedAddress(String address) {
        Instant now = clock.instant();
        Deque<Instant> failures = byAddress.get(address, a -> new ArrayDeque<>());
        synchronized (failures) {
            prune(failures, now);
            failures.addLast(now);
        }
    }

    /** A success clears the account's failures (not the address's: one address may try many accounts). */
    public void succeeded(String email) {
        byAccount.invalidate(accountKey(email));
    }

    /** The delay after {@code count} failures: 1 s after the fifth, doubling, at most a minute. */
    static Duration delay(int count) {
        int doublings = Math.min(count - FREE_FAILURES, 16);
        Duration delay = Duration.ofSeconds(1L << doublings);
        return delay.compareTo(MAX_ACCOUNT_DELAY) > 0 ? MAX_ACCOUNT_DELAY : delay;
    }

    private static void prune(Deque<Instant> failures, Instant now) {
        Instant horizon = now.minus(ADDRESS_WINDOW);
        while (!failures.isEmpty() && !failures.peekFirst().isAfter(horizon)) {
            failures.removeFirst();
        }
    }

    /** Only a hash of the email is held, so a heap dump lists no addresses. */
    private static String accountKey(String email) {
        return Secrets.sha256Hex(email);
    }
}
