package dev.pulseledger.store;

/** The few places where SQLite and PostgreSQL need different SQL. */
public enum Dialect {
    SQLITE("sqlite", ""),
    POSTGRESQL("postgresql", " FOR UPDATE");

    private final String migrationFolder;
    private final String lockClause;

    Dialect(String migrationFolder, String lockClause) {
        this.migrationFolder = migrationFolder;
        this.lockClause = lockClause;
    }

    public static Dialect fromUrl(String jdbcUrl) {
        if (jdbcUrl.startsWith("jdbc:sqlite:")) {
            return SQLITE;
        }
        if (jdbcUrl.startsWith("jdbc:postgresql:")) {
            return POSTGRESQL;
        }
        throw new IllegalArgumentException("must start with jdbc:sqlite: or jdbc:postgresql:");
    }

    /** Flyway location of this store's migrations. */
    public String migrations() {
        return "classpath:db/migration/" + migrationFolder;
    }

    /**
     * Appended to a SELECT that reads rows about to be changed. SQLite needs none: its write
     * transactions start IMMEDIATE and so already hold the database's single write lock.
     */
    public String lockClause() {
        return lockClause;
    }
}
