package dev.pulseledger.verify;

import dev.pulseledger.store.Database;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;

/**
 * Checks the ledger invariants of CONTRACT §6 and §7 on a live database, each in one statement so that
 * concurrent traffic cannot produce a false alarm: balances are never negative and equal the sum of
 * their ledger lines, the credits, allowances and expiries minus the spendings that are not reverted,
 * and the tokens left in their grants; each grant's tokens add up (remaining + expired + held by
 * spendings = amount); each spending drew exactly its amount from grants and is refunded at most once;
 * each grant has exactly one ledger line that granted it. Each statement reads its tables once, grouped,
 * so a check costs the same per row at any size (no lookup per account or per spending).
 */
public final class LedgerVerifier {
    private static final String BALANCES = "SELECT a.id, a.balance, COALESCE(l.total, 0), COALESCE(l.granted, 0),"
            + " COALESCE(s.active, 0), COALESCE(g.remaining, 0) FROM accounts a"
            + " LEFT JOIN (SELECT account_id, SUM(amount) AS total,"
            + "   SUM(CASE WHEN kind IN ('credit', 'allowance', 'expire') THEN amount ELSE 0 END) AS granted"
            + "   FROM ledger_entries GROUP BY account_id) l ON l.account_id = a.id"
            + " LEFT JOIN (SELECT account_id, SUM(amount) AS active FROM spendings WHERE status = 'active'"
            + "   GROUP BY account_id) s ON s.account_id = a.id"
            + " LEFT JOIN (SELECT account_id, SUM(remaining) AS remaining FROM grants WHERE remaining > 0"
            + "   GROUP BY account_id) g ON g.account_id = a.id"
            + " ORDER BY a.id";
    private static final String REFUNDS = "SELECT s.id, s.account_id, s.status, s.amount,"
            + " COALESCE(l.refunds, 0), COALESCE(l.spends, 0),"
            + " COALESCE(d.drawn, 0), COALESCE(d.returned, 0), COALESCE(d.grants, 0) FROM spendings s"
            + " LEFT JOIN (SELECT spending_id, SUM(CASE WHEN kind = 'revert' THEN 1 ELSE 0 END) AS refunds,"
            + "   SUM(CASE WHEN kind = 'spend' THEN 1 ELSE 0 END) AS spends FROM ledger_entries"
            + "   WHERE spending_id IS NOT NULL GROUP BY spending_id) l ON l.spending_id = s.id"
            + " LEFT JOIN (SELECT spending_id, SUM(amount) AS drawn, SUM(returned) AS returned,"
            + "   COUNT(*) AS grants FROM spending_grants GROUP BY spending_id) d ON d.spending_id = s.id";
    private static final String GRANTS = "SELECT g.id, g.account_id, g.amount, g.remaining, g.expired,"
            + " COALESCE(h.held, 0), COALESCE(l.lines, 0) FROM grants g"
            + " LEFT JOIN (SELECT grant_id, SUM(amount - returned) AS held FROM spending_grants"
            + "   GROUP BY grant_id) h ON h.grant_id = g.id"
            + " LEFT JOIN (SELECT account_id, grant_id, COUNT(*) AS lines FROM ledger_entries"
            + "   WHERE grant_id IS NOT NULL AND kind IN ('credit', 'allowance') GROUP BY account_id, grant_id) l"
            + "   ON l.grant_id = g.id AND l.account_id = g.account_id";

    /** One broken invariant on one account. */
    public record Mismatch(String accountId, String problem) {}

    /** Reads one row of a check and notes what it finds broken. */
    @FunctionalInterface
    private interface Check {
        void row(ResultSet rs, List<Mismatch> mismatches) throws SQLException;
    }

    private final Database database;

    public LedgerVerifier(Database database) {
        this.database = database;
    }

    public List<Mismatch> verify() {
        List<Mismatch> mismatches = new ArrayList<>();
        database.runRead(connection -> {
            run(connection, BALANCES, LedgerVerifier::checkBalance, mismatches);
            run(connection, REFUNDS, LedgerVerifier::checkSpending, mismatches);
            run(connection, GRANTS, LedgerVerifier::checkGrant, mismatches);
        });
        return mismatches;
    }

    private static void run(Connection connection, String sql, Check check, List<Mismatch> mismatches)
            throws SQLException {
        try (PreparedStatement ps = connection.prepareStatement(sql);
                ResultSet rs = ps.executeQuery()) {
            while (rs.next()) {
                check.row(rs, mismatches);
            }
        }
    }

    private static void checkBalance(ResultSet rs, List<Mismatch> mismatches) throws SQLException {
        String account = rs.getString(1);
        long balance = rs.getLong(2);
        long ledgerSum = rs.getLong(3);
        long granted = rs.getLong(4);
        long activeSpent = rs.getLong(5);
        long inGrants = rs.getLong(6);
        if (balance < 0) {
            mismatches.add(new Mismatch(account, "balance " + balance + " is negative"));
        }
        if (balance != ledgerSum) {
            mismatches.add(new Mismatch(account, "balance " + balance + " != sum of ledger entries " + ledgerSum));
        }
        if (balance != granted - activeSpent) {
            mismatches.add(new Mismatch(
                    account,
                    "balance " + balance + " != credits, allowances and expiries " + granted
                            + " - unreverted spendings " + activeSpent));
        }
        if (balance != inGrants) {
            mismatches.add(new Mismatch(account, "balance " + balance + " != tokens left in its grants " + inGrants));
        }
    }

    private static void checkSpending(ResultSet rs, List<Mismatch> mismatches) throws SQLException {
        String spending = rs.getString(1);
        String account = rs.getString(2);
        boolean reverted = "reverted".equals(rs.getString(3));
        long amount = rs.getLong(4);
        long refunds = rs.getLong(5);
        long spends = rs.getLong(6);
        long drawn = rs.getLong(7);
        long returned = rs.getLong(8);
        long grants = rs.getLong(9);
        if (spends != 1) {
            mismatches.add(new Mismatch(account, "spending " + spending + " has " + spends + " spend entries"));
        }
        if (refunds != (reverted ? 1 : 0)) {
            mismatches.add(new Mismatch(
                    account,
                    "spending " + spending + " is " + (reverted ? "reverted" : "active") + " with " + refunds
                            + " refunds"));
        }
        // A spending reverted before grants existed has no record of them; every other one drew its amount.
        if ((grants > 0 || !reverted) && drawn != amount) {
            mismatches.add(new Mismatch(
                    account, "spending " + spending + " of " + amount + " drew " + drawn + " from grants"));
        }
        if (grants > 0 && returned != (reverted ? amount : 0)) {
            mismatches.add(new Mismatch(
                    account,
                    "spending " + spending + " is " + (reverted ? "reverted" : "active") + " and returned " + returned
                            + " to its grants"));
        }
    }

    private static void checkGrant(ResultSet rs, List<Mismatch> mismatches) throws SQLException {
        String grant = rs.getString(1);
        String account = rs.getString(2);
        long amount = rs.getLong(3);
        long remaining = rs.getLong(4);
        long expired = rs.getLong(5);
        long held = rs.getLong(6);
        long grantedBy = rs.getLong(7);
        if (remaining < 0 || expired < 0 || held < 0 || remaining + expired + held != amount) {
            mismatches.add(new Mismatch(
                    account,
                    "grant " + grant + " of " + amount + ": remaining " + remaining + " + expired " + expired
                            + " + held by spendings " + held + " do not add up"));
        }
        // Grants made by the upgrade to §7 from an existing balance have no line of their own.
        if (grantedBy > 1) {
            mismatches.add(new Mismatch(account, "grant " + grant + " was granted by " + grantedBy + " ledger lines"));
        }
    }
}
