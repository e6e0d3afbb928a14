import dev.pulseledger.keys.Secrets;
import dev.pulseledger.store.Database;
import dev.pulseledger.store.Ids;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * The bench data: one hot account, {@code accounts} spread accounts and one account for the
 * reserve-then-settle case, each with one caller key,
 * written straight into a fresh database in one transaction (through the API this would cost a
 * commit per account). The SQL follows the schema of V10: each account's tokens sit in one never-expiring
 * grant, and its first period (on the free plan, which grants nothing) runs from now for a month. A
 * database of a build from before V10 (a baseline jar) gets the same accounts without grants or periods.
 */
record Seed(String hotAccountId, String hotKey, Path spreadKeys, int accounts, String reserveAccountId, String reserveKey) {
    private static final String INSERT_ACCOUNT = "INSERT INTO accounts (id, name, plan_id, balance, status, created_at,"
            + " period_anchor, period_start, period_end, period_granted, due_at)"
            + " VALUES (?, ?, 'free', ?, 'active', ?, ?, ?, ?, 0, ?)";
    private static final String INSERT_GRANT = "INSERT INTO grants (id, account_id, kind, amount, remaining, expired,"
            + " expires_at, period_start, created_at) VALUES (?, ?, 'credit', ?, ?, 0, NULL, NULL, ?)";
    private static final String INSERT_CREDIT = "INSERT INTO ledger_entries (account_id, kind, amount, balance_after,"
            + " spending_id, grant_id, reason, created_at) VALUES (?, 'credit', ?, ?, NULL, ?, 'opening balance', ?)";
    private static final String INSERT_ACCOUNT_BEFORE_GRANTS =
            "INSERT INTO accounts (id, name, plan_id, balance, status, created_at) VALUES (?, ?, 'free', ?, 'active', ?)";
    private static final String INSERT_CREDIT_BEFORE_GRANTS = "INSERT INTO ledger_entries (account_id, kind, amount,"
            + " balance_after, spending_id, reason, created_at) VALUES (?, 'credit', ?, ?, NULL, 'opening balance', ?)";
    private static final long MONTH_MILLIS = Duration.ofDays(30).toMillis();
    private static final String INSERT_KEY = "INSERT INTO api_keys (id, account_id, name, key_hash, prefix, created_at)"
            + " VALUES (?, ?, 'bench', ?, ?, ?)";

    /** Opens the database, bringing its schema to this build's (the migrations on the class path). */
    static Database open(String url) {
        return Database.open(settings(url));
    }

    /** Opens the database with its schema as it is. */
    static Database openAsIs(String url) {
        return Database.openWithoutMigrating(settings(url));
    }

    private static Database.Settings settings(String url) {
        return new Database.Settings(url, 2, Duration.ofSeconds(5), Duration.ofSeconds(300), Duration.ofSeconds(10));
    }

    /** @param migrate true to migrate the schema first; false when the server's own jar already made it */
    static Seed create(String url, int accounts, Path folder, boolean migrate) throws IOException {
        long startNanos = System.nanoTime();
        List<String> spreadKeys = new ArrayList<>(accounts);
        String[] hot = new String[2];
        String[] reserve = new String[2];
        try (Database database = migrate ? open(url) : openAsIs(url)) {
            database.inTransaction(connection -> {
                boolean grants;
                try (ResultSet tables = connection.getMetaData().getTables(null, null, "grants", null)) {
                    grants = tables.next();
                }
                try (PreparedStatement account =
                                connection.prepareStatement(grants ? INSERT_ACCOUNT : INSERT_ACCOUNT_BEFORE_GRANTS);
                        PreparedStatement grant = connection.prepareStatement(grants ? INSERT_GRANT : "SELECT 1");
                        PreparedStatement credit =
                                connection.prepareStatement(grants ? INSERT_CREDIT : INSERT_CREDIT_BEFORE_GRANTS);
                        PreparedStatement key = connection.prepareStatement(INSERT_KEY)) {
                    long now = System.currentTimeMillis();
                    for (int i = 0; i <= accounts + 1; i++) {
                        long balance = i == 0 || i > accounts ? Bench.HOT_BALANCE : Bench.SPREAD_BALANCE;
                        String accountId = Ids.account();
                        String secret = Secrets.newCallerKey();
                        account.setString(1, accountId);
                        account.setString(2, i == 0 ? "bench-hot" : "bench-" + i);
                        account.setLong(3, balance);
                        account.setLong(4, now);
                        credit.setString(1, accountId);
                        credit.setLong(2, balance);
                        credit.setLong(3, balance);
                        if (grants) {
                            account.setLong(5, now);
                            account.setLong(6, now);
                            account.setLong(7, now + MONTH_MILLIS);
                            account.setLong(8, now + MONTH_MILLIS);
                            String grantId = Ids.grant();
                            grant.setString(1, grantId);
                            grant.setString(2, accountId);
                            grant.setLong(3, balance);
                            grant.setLong(4, balance);
                            grant.setLong(5, now);
                            grant.addBatch();
                            credit.setString(4, grantId);
                            credit.setLong(5, now);
                        } else {
                            credit.setLong(4, now);
                        }
                        account.addBatch();
                        credit.addBatch();
                        key.setString(1, Ids.key());
                        key.setString(2, accountId);
                        key.setString(3, Secrets.sha256Hex(secret));
                        key.setString(4, Secrets.displayPrefix(secret));
                        key.setLong(5, now);
                        key.addBatch();
                        if (i == 0) {
                            hot[0] = accountId;
                            hot[1] = secret;
                        } else if (i > accounts) {
                            reserve[0] = accountId;
                            reserve[1] = secret;
                        } else {
                            spreadKeys.add(secret);
                        }
                    }
                    account.executeBatch();
                    if (grants) {
                        grant.executeBatch();
                    }
                    credit.executeBatch();
                    key.executeBatch();
                    keepNewestLineTimes(connection, now);
                }
                return null;
            });
        }
        Path keysFile = folder.resolve(migrate ? "spread-keys.txt" : "spread-keys-baseline.txt");
        Files.write(keysFile, spreadKeys);
        System.out.printf(
                "  seeded 1 hot account and %d spread accounts in %d ms%n",
                accounts, (System.nanoTime() - startNanos) / 1_000_000);
        return new Seed(hot[0], hot[1], keysFile, accounts, reserve[0], reserve[1]);
    }

    /**
     * Gives every account the time of its opening line, as the ledger would (V181), when the schema keeps
     * it: an older build's has no such column.
     */
    private static void keepNewestLineTimes(Connection connection, long openedAt) throws SQLException {
        try (ResultSet column = connection.getMetaData().getColumns(null, null, "accounts", "last_line_at")) {
            if (!column.next()) {
                return;
            }
        }
        try (PreparedStatement ps = connection.prepareStatement("UPDATE accounts SET last_line_at = ?")) {
            ps.setLong(1, openedAt);
            ps.executeUpdate();
        }
    }

    /**
     * Tokens spent from the hot account, from the spread accounts, and the spendings recorded; the
     * reserve-then-settle account is left out (its settles spend 7 tokens each).
     */
    long[] spent(Connection connection) throws SQLException {
        long[] spent = new long[3];
        try (PreparedStatement ps = connection.prepareStatement(
                "SELECT COALESCE(SUM(CASE WHEN id = ? THEN ? - balance ELSE 0 END), 0),"
                        + " COALESCE(SUM(CASE WHEN id = ? THEN 0 ELSE ? - balance END), 0) FROM accounts"
                        + " WHERE id <> ?")) {
            ps.setString(1, hotAccountId);
            ps.setLong(2, Bench.HOT_BALANCE);
            ps.setString(3, hotAccountId);
            ps.setLong(4, Bench.SPREAD_BALANCE);
            ps.setString(5, reserveAccountId);
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                spent[0] = rs.getLong(1);
                spent[1] = rs.getLong(2);
            }
        }
        try (PreparedStatement ps = connection.prepareStatement("SELECT COUNT(*) FROM spendings WHERE account_id <> ?")) {
            ps.setString(1, reserveAccountId);
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                spent[2] = rs.getLong(1);
            }
        }
        return spent;
    }
}
