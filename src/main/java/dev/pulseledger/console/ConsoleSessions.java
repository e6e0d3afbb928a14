package dev.pulseledger.console;

import dev.pulseledger.keys.Actor;
import dev.pulseledger.keys.Secrets;
import dev.pulseledger.store.Database;
import dev.pulseledger.store.Sql;
import java.security.SecureRandom;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.Optional;
import org.jdbi.v3.core.Handle;

/**
 * Operators' console sessions, kept in the database so that every node knows them and a restart
 * keeps them. Only the SHA-256 of a session id is stored; a session ends after {@link #IDLE_TIMEOUT}
 * without a request, after {@link #MAX_AGE} in any case, or at sign-out.
 */
public final class ConsoleSessions {
    public static final Duration IDLE_TIMEOUT = Duration.ofMinutes(30);
    public static final Duration MAX_AGE = Duration.ofHours(12);
    /** last_seen_at is written at most this often, so browsing is not a write per page. */
    static final Duration TOUCH_INTERVAL = Duration.ofMinutes(1);

    private static final int ID_BYTES = 32;
    private static final int MAX_EXPIRED_DELETED = 1000;
    private static final String INSERT = "INSERT INTO console_sessions (id_hash, created_at, last_seen_at,"
            + " operator_id) VALUES (:id_hash, :now, :now, :operator_id)";
    private static final String SELECT =
            "SELECT created_at, last_seen_at, operator_id FROM console_sessions WHERE id_hash = :id_hash";
    private static final String TOUCH = "UPDATE console_sessions SET last_seen_at = :at WHERE id_hash = :id_hash";
    private static final String DELETE = "DELETE FROM console_sessions WHERE id_hash = :id_hash";
    private static final String DELETE_EXPIRED = "DELETE FROM console_sessions WHERE id_hash IN (SELECT id_hash"
            + " FROM console_sessions WHERE last_seen_at < :idle_before OR created_at < :created_before LIMIT :rows)";

    private final Database database;
    private final Clock clock;
    private final SecureRandom random = new SecureRandom();

    public ConsoleSessions(Database database, Clock clock) {
        this.database = database;
        this.clock = clock;
    }

    /** When a stored session began, when it was last used, and whose it is. */
    private record Stored(Instant createdAt, Instant lastSeenAt, String operatorId) {}

    /** A live stored session: its CSRF token is derived from the id, so it is neither stored nor guessable. */
    public record Found(String idHash, String csrfToken, String operatorId) {}

    /**
     * A signed-in operator's session, with the operator as they are now; the actor's credential is a
     * short reference to the session for the audit log, not usable as it.
     */
    public record Session(String idHash, String csrfToken, Actor actor) {}

    /**
     * Starts a session of the operator and returns its id, the cookie's value; expired sessions are
     * swept on the way.
     */
    public String open(String operatorId) {
        byte[] bytes = new byte[ID_BYTES];
        random.nextBytes(bytes);
        String id = Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
        Instant now = clock.instant();
        database.inTransaction(connection -> {
            try (Handle sql = Sql.on(connection)) {
                sql.createUpdate(DELETE_EXPIRED)
                        .bind("idle_before", now.minus(IDLE_TIMEOUT).toEpochMilli())
                        .bind("created_before", now.minus(MAX_AGE).toEpochMilli())
                        .bind("rows", MAX_EXPIRED_DELETED)
                        .execute();
                return sql.createUpdate(INSERT)
                        .bind("id_hash", Secrets.sha256Hex(id))
                        .bind("now", now.toEpochMilli())
                        .bind("operator_id", operatorId)
                        .execute();
            }
        });
        return id;
    }

    /** The live session with this id, noting that it was used now; empty when unknown or expired. */
    public Optional<Found> find(String id) {
        String hash = Secrets.sha256Hex(id);
        Instant now = clock.instant();
        Optional<Stored> stored = database.read(connection -> {
            try (Handle sql = Sql.on(connection)) {
                return sql.createQuery(SELECT)
                        .bind("id_hash", hash)
                        .map((rs, ctx) -> rs.getString(3) == null
                                ? Optional.<Stored>empty()
                                : Optional.of(new Stored(
                                        Instant.ofEpochMilli(rs.getLong(1)),
                                        Instant.ofEpochMilli(rs.getLong(2)),
                                        rs.getString(3))))
                        .findFirst()
                        .flatMap(session -> session);
            }
        });
        if (stored.isEmpty()) {
            return Optional.empty();
        }
        Stored times = stored.get();
        if (!now.isBefore(times.lastSeenAt().plus(IDLE_TIMEOUT))
                || !now.isBefore(times.createdAt().plus(MAX_AGE))) {
            delete(hash);
            return Optional.empty();
        }
        if (!now.isBefore(times.lastSeenAt().plus(TOUCH_INTERVAL))) {
            touch(hash, now);
        }
        return Optional.of(new Found(hash, csrfToken(id), times.operatorId()));
    }

    /** Ends the session (sign-out); ending one that is gone already is harmless. */
    public void close(String id) {
        delete(Secrets.sha256Hex(id));
    }

    private void delete(String hash) {
        database.inTransaction(connection -> {
            try (Handle sql = Sql.on(connection)) {
                return sql.createUpdate(DELETE).bind("id_hash", hash).execute();
            }
        });
    }

    private void touch(String hash, Instant at) {
        database.inTransaction(connection -> {
            try (Handle sql = Sql.on(connection)) {
                return sql.createUpdate(TOUCH)
                        .bind("at", at.toEpochMilli())
                        .bind("id_hash", hash)
                        .execute();
            }
        });
    }

    /** A second, independent hash of the id: knowing the stored hash does not give the token. */
    private static String csrfToken(String id) {
        return Secrets.sha256Hex("console-csrf:" + id);
    }
}
