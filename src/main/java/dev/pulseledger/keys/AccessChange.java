package dev.pulseledger.keys;

/**
 * One committed change that decides who may call: which key hash, account, plan or operator it touched. The
 * subject of a {@code KEY} change is the key's hash, never the key.
 */
public record AccessChange(long sequence, Kind kind, String subject) {

    /** What a change touched, with its name in the {@code access_changes} table. */
    public enum Kind {
        KEY("key"),
        ACCOUNT("account"),
        PLAN("plan"),
        /** An operator changed: role, disabled, or an admin key made or revoked. Subject: the operator's id. */
        OPERATOR("operator");

        private final String column;

        Kind(String column) {
            this.column = column;
        }

        public String column() {
            return column;
        }

        static Kind fromColumn(String text) {
            for (Kind kind : values()) {
                if (kind.column.equals(text)) {
                    return kind;
                }
            }
            throw new IllegalStateException("Unknown access change kind in the database: " + text);
        }
    }
}
