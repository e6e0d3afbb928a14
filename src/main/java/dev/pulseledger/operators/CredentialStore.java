package dev.pulseledger.operators;

import dev.pulseledger.store.Database;
import dev.pulseledger.store.Rows;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.util.List;
import java.util.Optional;

/**
 * SQL for what an operator signs in to the console with: the password hash, the TOTP secret with the
 * last time step a code was accepted for, and the recovery codes' hashes. Accepting a code and using a
 * recovery code are single conditional updates, so two nodes never both accept the same one.
 */
final class CredentialStore {
    private static final String SET_PASSWORD = "UPDATE operators SET password_hash = ? WHERE id = ?";
    private static final String SELECT_BY_EMAIL =
            "SELECT id, password_hash, totp_secret, totp_last_step, disabled_at" + " FROM operators WHERE email = ?";
    private static final String ACCEPT_STEP = "UPDATE operators SET totp_last_step = ? WHERE id = ?"
            + " AND totp_secret IS NOT NULL AND (totp_last_step IS NULL OR totp_last_step < ?)";
    private static final String SET_TOTP = "UPDATE operators SET totp_secret = ?, totp_last_step = NULL WHERE id = ?";
    private static final String DELETE_CODES = "DELETE FROM operator_recovery_codes WHERE operator_id = ?";
    private static final String INSERT_CODE =
            "INSERT INTO operator_recovery_codes (operator_id, code_hash) VALUES (?, ?)";
    private static final String USE_CODE = "UPDATE operator_recovery_codes SET used_at = ?"
            + " WHERE operator_id = ? AND code_hash = ? AND used_at IS NULL";

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
            try (PreparedStatement ps = connection.prepareStatement(SET_PASSWORD)) {
                ps.setString(1, passwordHash);
                ps.setString(2, operatorId);
                return ps.executeUpdate() == 1;
            }
        });
    }

    Optional<SignInRecord> byEmail(String email) {
        return database.read(connection -> {
            try (PreparedStatement ps = connection.prepareStatement(SELECT_BY_EMAIL)) {
                ps.setString(1, email);
                try (ResultSet rs = ps.executeQuery()) {
                    if (!rs.next()) {
                        return Optional.empty();
                    }
                    return Optional.of(new SignInRecord(
                            rs.getString("id"),
                            Optional.ofNullable(rs.getString("password_hash")),
                            Optional.ofNullable(rs.getString("totp_secret")),
                            Rows.optionalInstant(rs, "disabled_at").isPresent()));
                }
            }
        });
    }

    /** Records that a code of time step {@code step} was accepted; false if one of that step or later was. */
    boolean acceptStep(String operatorId, long step) {
        return database.inTransaction(connection -> {
            try (PreparedStatement ps = connection.prepareStatement(ACCEPT_STEP)) {
                ps.setLong(1, step);
                ps.setString(2, operatorId);
                ps.setLong(3, step);
                return ps.executeUpdate() == 1;
            }
        });
    }

    /** Replaces the TOTP secret and recovery codes (hashes), or removes TOTP with an empty secret. */
    boolean setTotp(String operatorId, Optional<String> secret, List<String> recoveryCodeHashes) {
        return database.inTransaction(connection -> {
            int changed;
            try (PreparedStatement ps = connection.prepareStatement(SET_TOTP)) {
                ps.setString(1, secret.orElse(null));
                ps.setString(2, operatorId);
                changed = ps.executeUpdate();
            }
            try (PreparedStatement ps = connection.prepareStatement(DELETE_CODES)) {
                ps.setString(1, operatorId);
                ps.executeUpdate();
            }
            for (String hash : recoveryCodeHashes) {
                try (PreparedStatement ps = connection.prepareStatement(INSERT_CODE)) {
                    ps.setString(1, operatorId);
                    ps.setString(2, hash);
                    ps.executeUpdate();
                }
            }
            return changed == 1;
        });
    }

    /** Uses a recovery code once; false when it is unknown or used already. */
    boolean useRecoveryCode(String operatorId, String codeHash, long atMillis) {
        return database.inTransaction(connection -> {
            try (PreparedStatement ps = connection.prepareStatement(USE_CODE)) {
                ps.setLong(1, atMillis);
                ps.setString(2, operatorId);
                ps.setString(3, codeHash);
                return ps.executeUpdate() == 1;
            }
        });
    }
}
