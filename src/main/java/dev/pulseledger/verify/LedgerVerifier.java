package dev.pulseledger.verify;

import dev.pulseledger.store.Database;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;

/**
 * Checks the ledger invariants of CONTRACT §6 on a live database, each in one statement so that
 * concurrent traffic cannot produce a false alarm: balances are never negative and equal both the
 * sum of their ledger entries and all credits minus the spendings that are not reverted, and no
 * spending is refunded more than once.
 */
public final class LedgerVerifier {
    private static final String BALANCES = "SELECT a.id, a.balance,"
            + " COALESCE((SELECT SUM(l.amount) FROM ledger_entries l WHERE l.account_id = a.id), 0),"
            + " COALESCE((SELECT SUM(l.amount) FROM ledger_entries l"
            + "   WHERE l.account_id = a.id AND l.kind = 'credit'), 0),"
            + " COALESCE((SELECT SUM(s.amount) FROM spendings s"
            + "   WHERE s.account_id = a.id AND s.status = 'active'), 0)"
            + " FROM accounts a ORDER BY a.id";
    private static final String REFUNDS = "SELECT s.id, s.account_id, s.status,"
            + " (SELECT COUNT(*) FROM ledger_entries l WHERE l.spending_id = s.id AND l.kind = 'revert'),"
            + " (SELECT COUNT(*) FROM ledger_entries l WHERE l.spending_id = s.id AND l.kind = 'spend')"
            + " FROM spendings s";

    /** One broken invariant on one account. */
    public record Mismatch(String accountId, String problem) {}

    private final Database database;

    public LedgerVerifier(Database database) {
        this.database = database;
    }

    public List<Mismatch> verify() {
        List<Mismatch> mismatches = new ArrayList<>();
        database.runRead(connection -> {
            try (PreparedStatement ps = connection.prepareStatement(BALANCES);
                    ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    checkBalance(rs, mismatches);
                }
            }
            try (PreparedStatement ps = connection.prepareStatement(REFUNDS);
                    ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    checkRefunds(rs, mismatches);
                }
            }
        });
        return mismatches;
    }

    private static void checkBalance(ResultSet rs, List<Mismatch> mismatches) throws SQLException {
        String account = rs.getString(1);
        long balance = rs.getLong(2);
        long ledgerSum = rs.getLong(3);
        long credits = rs.getLong(4);
        long activeSpent = rs.getLong(5);
        if (balance < 0) {
            mismatches.add(new Mismatch(account, "balance " + balance + " is negative"));
        }
        if (balance != ledgerSum) {
            mismatches.add(new Mismatch(account, "balance " + balance + " != sum of ledger entries " + ledgerSum));
        }
        if (balance != credits - activeSpent) {
            mismatches.add(new Mismatch(
                    account,
                    "balance " + balance + " != credits " + credits + " - unreverted spendings " + activeSpent));
        }
    }

    private static void checkRefunds(ResultSet rs, List<Mismatch> mismatches) throws SQLException {
        String spending = rs.getString(1);
        String account = rs.getString(2);
        boolean reverted = "reverted".equals(rs.getString(3));
        long refunds = rs.getLong(4);
        long spends = rs.getLong(5);
        if (spends != 1) {
            mismatches.add(new Mismatch(account, "spending " + spending + " has " + spends + " spend entries"));
        }
        if (refunds != (reverted ? 1 : 0)) {
            mismatches.add(new Mismatch(
                    account,
                    "spending " + spending + " is " + (reverted ? "reverted" : "active") + " with " + refunds
                            + " refunds"));
        }
    }
}
