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
 * The bench data: one hot account, {@code accounts} spread accounts and {@code accounts} accounts of the
 * mixed case, each with one caller key,
 * written straight into a fresh database in one transaction (through the API this would cost a
 * commit per account). The SQL follows the schema of V10: each account's tokens sit in one never-expiring
 * grant, and its first period (on the free plan, which grants nothing) runs from now for a month. A
 * database of a build from before V10 (a baseline jar) gets the same accounts without grants or periods.
 */
record Seed(String hotAccountId, String hotKey, Path spreadKeys, int accounts, List<String> mixedKeys) {
    /** The accounts' names by group, for {@link #tally}: the bench names them so. */
    static final String HOT = "bench-hot";
    static final String SPREAD = "bench-spread-%";
    static final String MIXED = "bench-mixed-%";

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
        List<String> mixedKeys = new ArrayList<>(accounts);
        String[] hot = new String[2];
        // The keys and their hashes are made before the transaction, and the rows go out in chunks: a
        // transaction idle for 10 s is ended by the server (the database's idle-in-transaction timeout),
        // which a busy machine reached while this loop ran.
        String[] secrets = new String[2 * accounts + 1];
        String[] hashes = new String[secrets.length];
        for (int i = 0; i < secrets.length; i++) {
            secrets[i] = Secrets.newCallerKey();
            hashes[i] = Secrets.sha256Hex(secrets[i]);
        }
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
                    for (int i = 0; i <= 2 * accounts; i++) {
                        long balance = i == 0 ? Bench.HOT_BALANCE : Bench.SPREAD_BALANCE;
                        String accountId = Ids.account();
                        String secret = secrets[i];
                        account.setString(1, accountId);
                        account.setString(2, i == 0 ? HOT
                                : i <= accounts ? "bench-spread-" + i : "bench-mixed-" + (i - accounts));
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
                        key.setString(3, hashes[i]);
                        key.setString(4, Secrets.displayPrefix(secret));
                        key.setLong(5, now);
                        key.addBatch();
                        if (i == 0) {
                            hot[0] = accountId;
                            hot[1] = secret;
                        } else if (i <= accounts) {
                            spreadKeys.add(secret);
                        } else {
                            mixedKeys.add(secret);
                        }
                        if (i % 2000 == 1999 || i == 2 * accounts) {
                            account.executeBatch();
                            if (grants) {
                                grant.executeBatch();
                            }
                            credit.executeBatch();
                            key.executeBatch();
                        }
                    }
                    keepNewestLineTimes(connection, now);
                }
                return null;
            });
        }
        Path keysFile = folder.resolve(migrate ? "spread-keys.txt" : "spread-keys-baseline.txt");
        Files.write(keysFile, spreadKeys);
        System.out.printf(
                "  seeded 1 hot account, %d spread accounts and %d of the mixed case in %d ms%n",
                accounts, accounts, (System.nanoTime() - startNanos) / 1_000_000);
        return new Seed(hot[0], hot[1], keysFile, accounts, List.copyOf(mixedKeys));
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
     * What the ledger holds for one group of accounts ({@link #HOT}, {@link #SPREAD}, {@link #MIXED}):
     * the accounts and their balances, their grants, spendings (all, and those a settle made), and
     * their reservations still held.
     */
    record Tally(
            long accounts,
            long balances,
            long granted,
            long spendings,
            long spent,
            long reverted,
            long settled,
            long held) {
        /** Every granted token is in a balance, held, or spent and not reverted. */
        boolean accountedFor() {
            return balances + held + spent - reverted == granted;
        }

        /** The spendings a plain spend made (a settle of a positive amount makes one too). */
        long plainSpendings() {
            return spendings - settled;
        }

        String equation() {
            return String.format(
                    "balances %d + held %d + spent %d − reverted %d = %d; granted %d",
                    balances, held, spent, reverted, balances + held + spent - reverted, granted);
        }
    }

    static Tally tally(Connection connection, String names) throws SQLException {
        long[] accounts = row(connection, "SELECT COUNT(*), COALESCE(SUM(balance), 0) FROM accounts WHERE name LIKE ?",
                names);
        long[] granted = row(connection, "SELECT COALESCE(SUM(g.amount), 0) FROM grants g"
                + " JOIN accounts a ON a.id = g.account_id WHERE a.name LIKE ?", names);
        long[] spendings = row(connection, "SELECT COUNT(*), COALESCE(SUM(s.amount), 0),"
                + " COALESCE(SUM(s.reverted_amount), 0) FROM spendings s"
                + " JOIN accounts a ON a.id = s.account_id WHERE a.name LIKE ?", names);
        long[] reservations = row(connection, "SELECT COALESCE(SUM(CASE WHEN r.spending_id IS NOT NULL THEN 1 ELSE 0 END), 0),"
                + " COALESCE(SUM(CASE WHEN r.status = 'held' THEN r.amount ELSE 0 END), 0) FROM reservations r"
                + " JOIN accounts a ON a.id = r.account_id WHERE a.name LIKE ?", names);
        return new Tally(accounts[0], accounts[1], granted[0], spendings[0], spendings[1], spendings[2],
                reservations[0], reservations[1]);
    }

    private static long[] row(Connection connection, String sql, String names) throws SQLException {
        try (PreparedStatement ps = connection.prepareStatement(sql)) {
            ps.setString(1, names);
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                long[] values = new long[rs.getMetaData().getColumnCount()];
                for (int i = 0; i < values.length; i++) {
                    values[i] = rs.getLong(i + 1);
                }
                return values;
            }
        }
    }
}
