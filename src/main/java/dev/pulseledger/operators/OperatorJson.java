package dev.pulseledger.operators;

import com.fasterxml.jackson.annotation.JsonUnwrapped;
import dev.pulseledger.http.Times;
import org.jspecify.annotations.Nullable;

/** JSON shapes of operators, their admin keys and the audit log. Never a password, TOTP secret or key hash. */
final class OperatorJson {
    private OperatorJson() {}

    record OperatorBody(
            String id,
            String name,
            @Nullable String email,
            String role,
            boolean disabled,
            @Nullable String disabledAt,
            boolean hasPassword,
            boolean totp,
            String createdAt) {}

    record KeyBody(
            String id,
            String operatorId,
            String name,
            @Nullable String prefix,
            String createdAt,
            @Nullable String revokedAt) {}

    /** A new admin key with its secret, shown this once. */
    record NewKeyBody(@JsonUnwrapped KeyBody details, String key) {}

    record AuditBody(
            String at,
            String operatorId,
            String operatorName,
            String via,
            String credential,
            String method,
            String path,
            @Nullable Integer status) {}

    static OperatorBody operator(Operator operator) {
        return new OperatorBody(
                operator.id(),
                operator.name(),
                operator.email().orElse(null),
                operator.role().text(),
                operator.disabled(),
                operator.disabledAt().map(Times::format).orElse(null),
                operator.hasPassword(),
                operator.hasTotp(),
                Times.format(operator.createdAt()));
    }

    static KeyBody key(AdminKey key) {
        return new KeyBody(
                key.id(),
                key.operatorId(),
                key.name(),
                key.prefix().map(prefix -> prefix + "…").orElse(null),
                Times.format(key.createdAt()),
                key.revokedAt().map(Times::format).orElse(null));
    }

    static AuditBody audit(AuditEntry entry) {
        return new AuditBody(
                Times.format(entry.at()),
                entry.operatorId(),
                entry.operatorName(),
                entry.via(),
                entry.credential(),
                entry.method(),
                entry.path(),
                entry.status() == AuditLog.UNKNOWN_OUTCOME ? null : entry.status());
    }
}
