package dev.pulseledger.operators;

import dev.pulseledger.store.Database;
import dev.pulseledger.store.Rows;
import dev.pulseledger.store.Sql;
import java.util.List;
import java.util.Optional;
import org.jdbi.v3.core.Handle;

/**
 * SQL for what an operator signs in to the console with: the password hash, the TOTP secret with the
 * last time step a code was accepted for, and the recovery codes' hashes. Accepting a code and using a
 * recovery code are single conditional updates, so two nodes never both accept the same one.
 */
final class CredentialStore {
    private static final String SET_PASSWORD = "UPDATE operators SET password_hash = :password_hash WHERE id = :id";
    private static final String SELECT_BY_EMAIL = "SELECT id, password_hash, totp_secret, totp_last_step, disabled_at"
            + " FROM operators WHERE email = :email";
    private static final String ACCEPT_STEP = "UPDATE operators SET totp_last_step = :step WHERE id = :id"
            + " AND totp_secret IS NOT NULL AND (totp_last_step IS NULL OR totp_last_step < :step)";
    private static final String SET_TOTP =
            "UPDATE operators SET totp_secret = :totp_secret, totp_last_step = NULL WHERE id = :id";
    private static final String DELETE_CODES = "DELETE FROM operator_recovery_codes WHERE operator_id = :operator_id";
    private static final String INSERT_CODE =
            "INSERT INTO operator_recovery_codes (operator_id, code_hash) VALUES (:operator_id, :code_hash)";
    private static final String USE_CODE = "UPDATE operator_recovery_codes SET used_at = :used_at"
            + " WHERE operator_id = :operator_id AND code_hash = :code_hash AND used_at IS NULL";

    /** What sign-in checks for one email. */
    record SignInRecord(
            String operatorId, Optional<String> passwordHash, Optional<String> totpSecret, boolean disabled) {}

    private final Database database;

    CredentialStore(Database database) {
        this.database = database;
    }

    /** Sets the password hash; false when no operator has this id. */
    boolean setPassword(String operatorId, String passwordHash) {
        return database.inTransaction(connection -> {
            try (Handle sql = Sql.on(connection)) {
                return sql.createUpdate(SET_PASSWORD)
                                .bind("password_hash", passwordHash)
                                .bind("id", operatorId)
                                .execute()
                        == 1;
            }
        });
    }

    Optional<SignInRecord> byEmail(String email) {
        return database.read(connection -> {
            try (Handle sql = Sql.on(connection)) {
                return sql.createQuery(SELECT_BY_EMAIL)
                        .bind("email", email)
                        .map((rs, ctx) -> new SignInRecord(
                                rs.getString("id"),
                                Optional.ofNullable(rs.getString("password_hash")),
                                Optional.ofNullable(rs.getString("totp_secret")),
                                Rows.optionalInstant(rs, "disabled_at").isPresent()))
                        .findFirst();
            }
        });
    }

    /** Records that a code of time step {@code step} was accepted; false if one of that step or later was. */
    boolean acceptStep(String operatorId, long step) {
        return database.inTransaction(connection -> {
            try (Handle sql = Sql.on(connection)) {
                return sql.createUpdate(ACCEPT_STEP)
                                .bind("step", step)
                                .bind("id", operatorId)
                                .execute()
                        == 1;
            }
        });
    }

    /** Replaces the TOTP secret and recovery codes (hashes), or removes TOTP with an empty secret. */
    boolean setTotp(String operatorId, Optional<String> secret, List<String> recoveryCodeHashes) {
        return database.inTransaction(connection -> {
            try (Handle sql = Sql.on(connection)) {
                int changed = sql.createUpdate(SET_TOTP)
                        .bind("totp_secret", secret.orElse(null))
                        .bind("id", operatorId)
                        .execute();
                sql.createUpdate(DELETE_CODES).bind("operator_id", operatorId).execute();
                for (String hash : recoveryCodeHashes) {
                    sql.createUpdate(INSERT_CODE)
                            .bind("operator_id", operatorId)
                            .bind("code_hash", hash)
                            .execute();
                }
                return changed == 1;
            }
        });
    }

    /** Uses a recovery code once; false when it is unknown or used already. */
    boolean useRecoveryCode(String operatorId, String codeHash, long atMillis) {
        return database.inTransaction(connection -> {
            try (Handle sql = Sql.on(connection)) {
                return sql.createUpdate(USE_CODE)
                                .bind("used_at", atMillis)
                                .bind("operator_id", operatorId)
                                .bind("code_hash", codeHash)
                                .execute()
                        == 1;
            }
        });
    }
}
