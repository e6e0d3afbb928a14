package dev.pulseledger.operators;

import dev.pulseledger.keys.Secrets;
import dev.pulseledger.store.Database;
import dev.pulseledger.store.Sql;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import org.jdbi.v3.core.Handle;

/**
 * Limits failed console sign-ins two ways, counted in the database so that every node holds the same
 * limits (an attacker gains nothing by spreading guesses over nodes). Per client address: at most {@link
 * #ADDRESS_FAILURES} failures in {@link #ADDRESS_WINDOW} from the first, then that address waits until the
 * window ends. Per account (the email as typed, known or not, so the limit says nothing about which emails
 * exist): after {@link #FREE_FAILURES} failures each attempt waits a delay that doubles per failure up to
 * {@link #MAX_ACCOUNT_DELAY} and then stays there. No one can lock an owner out for good: the delay never
 * exceeds a minute, a success clears it, an attempt with a valid TOTP code is not held by it, and the
 * admin-key sign-in is not limited by it at all. Only hashes of addresses and emails are stored.
 */
public final class SignInLimiter {
    public static final int ADDRESS_FAILURES = 10;
    public static final Duration ADDRESS_WINDOW = Duration.ofMinutes(15);
    public static final int FREE_FAILURES = 5;
    public static final Duration MAX_ACCOUNT_DELAY = Duration.ofMinutes(1);
    /** An account's failures are forgotten an hour after the last one; no row is kept longer. */
    private static final Duration FORGET_AFTER = Duration.ofHours(1);

    private static final String SELECT =
            "SELECT failures, first_at, last_at FROM sign_in_limits WHERE limit_key = :limit_key";
    /** An address's window starts at its first failure; a failure after the window starts a new one. */
    private static final String ADDRESS_FAILED = "INSERT INTO sign_in_limits (limit_key, failures, first_at, last_at)"
            + " VALUES (:limit_key, 1, :now, :now) ON CONFLICT (limit_key) DO UPDATE SET"
            + " failures = CASE WHEN sign_in_limits.first_at <= :horizon THEN 1 ELSE sign_in_limits.failures + 1 END,"
            + " first_at = CASE WHEN sign_in_limits.first_at <= :horizon THEN excluded.first_at"
            + " ELSE sign_in_limits.first_at END, last_at = excluded.last_at";
    /** An account's count runs until an hour passes without a failure. */
    private static final String ACCOUNT_FAILED = "INSERT INTO sign_in_limits (limit_key, failures, first_at, last_at)"
            + " VALUES (:limit_key, 1, :now, :now) ON CONFLICT (limit_key) DO UPDATE SET"
            + " failures = CASE WHEN sign_in_limits.last_at <= :horizon THEN 1 ELSE sign_in_limits.failures + 1 END,"
            + " first_at = CASE WHEN sign_in_limits.last_at <= :horizon THEN excluded.first_at"
            + " ELSE sign_in_limits.first_at END, last_at = excluded.last_at";

    private static final String CLEAR = "DELETE FROM sign_in_limits WHERE limit_key = :limit_key";
    private static final String FORGET_OLD = "DELETE FROM sign_in_limits WHERE last_at <= :before";

    /** One key's failures: how many, when its window began, when the latest was. */
    private record Failures(int count, Instant first, Instant last) {}

    private final Database database;
    private final Clock clock;

    public SignInLimiter(Database database, Clock clock) {
        this.database = database;
        this.clock = clock;
    }

    /** How long this address must wait before its next attempt; empty when it may try now. */
    public Optional<Duration> addressWait(String address) {
        Instant now = clock.instant();
        return failures(addressKey(address))
                .filter(failures -> failures.count() >= ADDRESS_FAILURES)
                .map(failures -> failures.first().plus(ADDRESS_WINDOW))
                .filter(now::isBefore)
                .map(until -> Duration.between(now, until));
    }

    /** How long attempts on this account must wait now; empty when one may be made. */
    public Optional<Duration> accountWait(String email) {
        Instant now = clock.instant();
        return failures(accountKey(email))
                .filter(failures -> failures.count() >= FREE_FAILURES)
                .filter(failures -> failures.last().isAfter(now.minus(FORGET_AFTER)))
                .map(failures -> failures.last().plus(delay(failures.count())))
                .filter(now::isBefore)
                .map(until -> Duration.between(now, until));
    }

    public void failed(String address, String email) {
        Instant now = clock.instant();
        database.runInTransaction(connection -> {
            try (Handle sql = Sql.on(connection)) {
                count(sql, ADDRESS_FAILED, addressKey(address), now, now.minus(ADDRESS_WINDOW));
                count(sql, ACCOUNT_FAILED, accountKey(email), now, now.minus(FORGET_AFTER));
                forgetOld(sql, now);
            }
        });
    }

    /** A failure that names no account (a wrong admin key): counted against the address only. */
    public void failedAddress(String address) {
        Instant now = clock.instant();
        database.runInTransaction(connection -> {
            try (Handle sql = Sql.on(connection)) {
                count(sql, ADDRESS_FAILED, addressKey(address), now, now.minus(ADDRESS_WINDOW));
                forgetOld(sql, now);
            }
        });
    }

    /** A success clears the account's failures (not the address's: one address may try many accounts). */
    public void succeeded(String email) {
        database.runInTransaction(connection -> {
            try (Handle sql = Sql.on(connection)) {
                sql.createUpdate(CLEAR).bind("limit_key", accountKey(email)).execute();
            }
        });
    }

    /** The delay after {@code count} failures: 1 s after the fifth, doubling, at most a minute. */
    static Duration delay(int count) {
        int doublings = Math.min(count - FREE_FAILURES, 16);
        Duration delay = Duration.ofSeconds(1L << doublings);
        return delay.compareTo(MAX_ACCOUNT_DELAY) > 0 ? MAX_ACCOUNT_DELAY : delay;
    }

    private Optional<Failures> failures(String key) {
        return database.read(connection -> {
            try (Handle sql = Sql.on(connection)) {
                return sql.createQuery(SELECT)
                        .bind("limit_key", key)
                        .map((rs, ctx) -> new Failures(
                                rs.getInt(1), Instant.ofEpochMilli(rs.getLong(2)), Instant.ofEpochMilli(rs.getLong(3))))
                        .findOne();
            }
        });
    }

    /** Counts one failure of {@code key}; a count whose reset condition is at or before {@code horizon} starts over. */
    private static void count(Handle sql, String statement, String key, Instant now, Instant horizon) {
        sql.createUpdate(statement)
                .bind("limit_key", key)
                .bind("now", now.toEpochMilli())
                .bind("horizon", horizon.toEpochMilli())
                .execute();
    }

    private static void forgetOld(Handle sql, Instant now) {
        sql.createUpdate(FORGET_OLD)
                .bind("before", now.minus(FORGET_AFTER).toEpochMilli())
                .execute();
    }

    private static String addressKey(String address) {
        return "a:" + Secrets.sha256Hex(address);
    }

    /** Only a hash of the email is held, so the table lists no addresses. */
    private static String accountKey(String email) {
        return "e:" + Secrets.sha256Hex(email);
    }
}
