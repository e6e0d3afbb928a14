package dev.pulseledger.ledger.read;

import dev.pulseledger.accounts.Pools;
import dev.pulseledger.keys.BudgetPeriod;
import dev.pulseledger.ledger.core.PlanChangeTiming;
import dev.pulseledger.store.Database;
import dev.pulseledger.store.Rows;
import dev.pulseledger.store.Sql;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import org.jdbi.v3.core.Handle;

/**
 * Checks the ledger invariants of CONTRACT §6, §7 and §8 on a live database, each in one statement so
 * that concurrent traffic cannot produce a false alarm: balances are never negative and equal the sum
 * of their ledger lines, the credits, allowances and expiries minus what spendings kept (their amount
 * less what reverts refunded) minus what live reservations hold, and the tokens left in their grants;
 * each grant's tokens add up (remaining + expired + held by spendings and reservations = amount); each
 * spending drew exactly its amount from grants and is refunded at most its amount, once per revert
 * line; each grant has exactly one ledger line that granted it; each reservation was held by one line,
 * ended at most once (one release line, none while held), settled no more than it held, and drew and
 * returned exactly its amount; no spending or ledger line belongs to an account that does not exist; no
 * key's use of a pool in any window of one of its budgets went above the budget (CONTRACT §14).
 * Each statement reads each of its tables once, grouped, so a check costs the same per row at any size
 * (no lookup per account or per spending). What a spending drew is read in its two forms (V160) apart,
 * not as one UNION ALL: PostgreSQL cannot estimate the groups of a UNION ALL and planned a grouping of
 * every spending as if for 200 rows (2.9× slower with 1,000,000 spendings). A reservation's draws have the
 * same two forms (V292): its own row names the grant that alone paid it, which it holds while held and has
 * given back once ended. Rows are streamed, a page at a time, so memory stays flat however many spendings
 * there are.
 */
public final class LedgerVerifier {
    /**
     * One row per pool of each account with ledger lines in it (CONTRACT §14), and one for an account
     * without any: the {@code default} pool's balance is the account's row, a named pool's is what its
     * grants have left, so there the lines, the grants' history and what spendings kept must agree with it.
     */
    private static final String BALANCES = "SELECT a.id, COALESCE(l.pool, 'default') AS pool,"
            + " CASE WHEN COALESCE(l.pool, 'default') = 'default' THEN a.balance ELSE COALESCE(g.remaining, 0) END,"
            + " COALESCE(l.total, 0), COALESCE(l.granted, 0),"
            + " COALESCE(s.kept, 0), COALESCE(r.held, 0), COALESCE(g.remaining, 0), l.newest, a.last_line_at"
            + " FROM accounts a"
            + " LEFT JOIN (SELECT account_id, pool, SUM(amount) AS total,"
            + "   SUM(CASE WHEN kind IN ('credit', 'allowance', 'sla_credit', 'expire') THEN amount ELSE 0 END) AS granted,"
            + "   MAX(created_at) AS newest FROM ledger_entries GROUP BY account_id, pool) l ON l.account_id = a.id"
            + " LEFT JOIN (SELECT account_id, pool, SUM(amount - reverted_amount) AS kept FROM spendings"
            + "   GROUP BY account_id, pool) s ON s.account_id = a.id AND s.pool = COALESCE(l.pool, 'default')"
            + " LEFT JOIN (SELECT account_id, pool, SUM(amount) AS held FROM reservations WHERE status = 'held'"
            + "   GROUP BY account_id, pool) r ON r.account_id = a.id AND r.pool = COALESCE(l.pool, 'default')"
            + " LEFT JOIN (SELECT account_id, pool, SUM(remaining) AS remaining FROM grants WHERE remaining > 0"
            + "   GROUP BY account_id, pool) g ON g.account_id = a.id AND g.pool = COALESCE(l.pool, 'default')"
            + " ORDER BY a.id";

    private static final String REFUNDS = "SELECT s.id, s.account_id, s.status, s.amount, s.reverted_amount,"
            + " COALESCE(l.refunded, 0), COALESCE(l.spends, 0),"
            + " COALESCE(d.drawn, 0) + CASE WHEN s.grant_id IS NULL THEN 0 ELSE s.amount END,"
            + " COALESCE(d.returned, 0) + CASE WHEN s.grant_id IS NULL THEN 0 ELSE s.reverted_amount END,"
            + " COALESCE(d.grants, 0) + CASE WHEN s.grant_id IS NULL THEN 0 ELSE 1 END FROM spendings s"
            + " LEFT JOIN (SELECT spending_id, SUM(CASE WHEN kind = 'revert' THEN amount ELSE 0 END) AS refunded,"
            + "   SUM(CASE WHEN kind = 'spend' THEN 1 ELSE 0 END) AS spends FROM ledger_entries"
            + "   WHERE spending_id IS NOT NULL GROUP BY spending_id) l ON l.spending_id = s.id"
            + " LEFT JOIN (SELECT spending_id, SUM(amount) AS drawn, SUM(returned) AS returned,"
            + "   COUNT(*) AS grants FROM spending_grants GROUP BY spending_id) d ON d.spending_id = s.id";
    private static final String GRANTS = "SELECT g.id, g.account_id, g.amount, g.remaining, g.expired,"
            + " COALESCE(h.held, 0) + COALESCE(o.held, 0) + COALESCE(r.held, 0), COALESCE(l.lines, 0) FROM grants g"
            + " LEFT JOIN (SELECT grant_id, SUM(amount - returned) AS held FROM spending_grants"
            + "   GROUP BY grant_id) h ON h.grant_id = g.id"
            + " LEFT JOIN (SELECT grant_id, SUM(amount - reverted_amount) AS held FROM spendings"
            + "   WHERE grant_id IS NOT NULL GROUP BY grant_id) o ON o.grant_id = g.id"
            + " LEFT JOIN (SELECT grant_id, SUM(amount) AS held FROM reservations"
            + "   WHERE grant_id IS NOT NULL AND status = 'held' GROUP BY grant_id) r ON r.grant_id = g.id"
            + " LEFT JOIN (SELECT account_id, grant_id, COUNT(*) AS lines FROM ledger_entries"
            + "   WHERE grant_id IS NOT NULL AND kind IN ('credit', 'allowance', 'sla_credit') GROUP BY account_id, grant_id) l"
            + "   ON l.grant_id = g.id AND l.account_id = g.account_id";
    private static final String RESERVATIONS = "SELECT r.id, r.account_id, r.status, r.amount,"
            + " COALESCE(r.settled_amount, 0), (SELECT s.amount FROM spendings s WHERE s.id = r.spending_id),"
            + " (SELECT COUNT(*) FROM ledger_entries l WHERE l.spending_id = r.id AND l.kind = 'hold'),"
            + " (SELECT COALESCE(SUM(l.amount), 0) FROM ledger_entries l WHERE l.spending_id = r.id"
            + "   AND l.kind = 'hold'),"
            + " (SELECT COUNT(*) FROM ledger_entries l WHERE l.spending_id = r.id AND l.kind = 'release'),"
            + " (SELECT COALESCE(SUM(l.amount), 0) FROM ledger_entries l WHERE l.spending_id = r.id"
            + "   AND l.kind = 'release'),"
            + " COALESCE(d.drawn, 0) + CASE WHEN r.grant_id IS NULL THEN 0 ELSE r.amount END,"
            + " COALESCE(d.returned, 0)"
            + " + CASE WHEN r.grant_id IS NULL OR r.status = 'held' THEN 0 ELSE r.amount END"
            + " FROM reservations r LEFT JOIN (SELECT spending_id, SUM(amount) AS drawn, SUM(returned) AS returned"
            + "   FROM spending_grants GROUP BY spending_id) d ON d.spending_id = r.id";

    /** Each measured SLA period (V261; one per account and period by its key) with its credit's grant and lines. */
    private static final String SLA_CREDITS = "SELECT s.account_id, s.period_start, s.period_allowance,"
            + " s.credit_percent, s.amount, s.grant_id, g.amount, COALESCE(l.lines, 0) FROM sla_periods s"
            + " LEFT JOIN grants g ON g.id = s.grant_id"
            + " LEFT JOIN (SELECT grant_id, COUNT(*) AS lines FROM ledger_entries WHERE kind = 'sla_credit'"
            + "   GROUP BY grant_id) l ON l.grant_id = s.grant_id";

    /** Periods that got two allowances in one pool (each pool gets its own, CONTRACT §14). */
    private static final String TWO_ALLOWANCES = "SELECT account_id, period_start, COUNT(*), pool FROM grants"
            + " WHERE kind = 'allowance' GROUP BY account_id, pool, period_start HAVING COUNT(*) > 1";

    /**
     * A plan change within a period (CONTRACT §13) may give a period a second allowance in a pool, only after
     * the first: every allowance grant of the account and pool that started before the change's grant must
     * have expired by the time that grant starts (the change ends them all, rolled-over ones too). This lists
     * each one that had not.
     */
    private static final String OVERLAPPING_ALLOWANCES = "SELECT g.account_id, g.id, n.id, n.period_start, g.pool"
            + " FROM ledger_entries l JOIN grants n ON n.id = l.grant_id"
            + " JOIN grants g ON g.account_id = n.account_id AND g.pool = n.pool AND g.kind = 'allowance'"
            + " AND g.id <> n.id AND g.period_start < n.period_start"
            + " AND (g.expires_at IS NULL OR g.expires_at > n.period_start)"
            + " WHERE l.kind = 'allowance' AND l.reason LIKE '" + PlanChangeTiming.REASON + " %'"
            + " ORDER BY g.account_id, n.period_start";

    /**
     * Spendings, ledger lines and reservations whose account row is missing. Since V170 and V291
     * (PostgreSQL) no foreign key stops such a row: only the ledger writer makes them, for accounts it holds
     * locked, and accounts are never deleted, so this is the check that the keys made.
     */
    private static final String ORPHANS = "SELECT o.account_id, o.what, COUNT(*) FROM ("
            + " SELECT account_id, 'ledger lines' AS what FROM ledger_entries"
            + " UNION ALL SELECT account_id, 'spendings' AS what FROM spendings"
            + " UNION ALL SELECT account_id, 'reservations' AS what FROM reservations) o"
            + " WHERE NOT EXISTS (SELECT 1 FROM accounts a WHERE a.id = o.account_id)"
            + " GROUP BY o.account_id, o.what ORDER BY o.account_id, o.what";

    /**
     * What each budgeted key used of its budgets' pools, one row per spending (counted at key_used_at, less
     * what was reverted) and per live hold (at its creation), from when the key got the budget on: in the
     * window the budget was set in, what came before counts against it too, and the ledger refuses anything
     * more, so what came after can never exceed it on its own.
     */
    private static final String KEY_USE = "SELECT k.account_id, b.key_id, b.pool, b.period, b.tokens, u.at, u.used"
            + " FROM key_budgets b JOIN api_keys k ON k.id = b.key_id"
            + " JOIN (SELECT key_id, pool, key_used_at AS at, amount - reverted_amount AS used FROM spendings"
            + "   WHERE key_id IS NOT NULL"
            + "   UNION ALL SELECT key_id, pool, created_at AS at, amount AS used FROM reservations"
            + "   WHERE key_id IS NOT NULL AND status = 'held') u"
            + " ON u.key_id = b.key_id AND u.pool = b.pool AND u.at >= b.set_at";

    /** Rows read per round trip: the driver holds one page of a check's rows, not all of them. */
    private static final int FETCH_SIZE = 10_000;

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
        // In one transaction: one snapshot, and PostgreSQL's driver streams a result set only inside one
        // (in autocommit it reads every row into memory first).
        database.runReadInTransaction(connection -> {
            try (Handle sql = Sql.on(connection)) {
                run(sql, BALANCES, LedgerVerifier::checkBalance, mismatches);
                run(sql, REFUNDS, LedgerVerifier::checkSpending, mismatches);
                run(sql, GRANTS, LedgerVerifier::checkGrant, mismatches);
                run(sql, RESERVATIONS, LedgerVerifier::checkReservation, mismatches);
                run(sql, ORPHANS, LedgerVerifier::reportOrphans, mismatches);
                run(sql, SLA_CREDITS, LedgerVerifier::checkSlaCredit, mismatches);
                run(sql, TWO_ALLOWANCES, LedgerVerifier::reportTwoAllowances, mismatches);
                checkKeyBudgets(sql, mismatches);
                run(sql, OVERLAPPING_ALLOWANCES, LedgerVerifier::reportOverlappingAllowance, mismatches);
            }
        });
        return mismatches;
    }

    /** One window of one key budget, and the account the key belongs to. */
    private record KeyWindow(
            String accountId, String keyId, String pool, BudgetPeriod period, long tokens, Instant start) {}

    /** Sums each budget's use per window (CONTRACT §14): none may be above the budget. */
    private static void checkKeyBudgets(Handle sql, List<Mismatch> mismatches) {
        Map<KeyWindow, Long> used = new TreeMap<>(Comparator.comparing(KeyWindow::keyId)
                .thenComparing(KeyWindow::pool)
                .thenComparing(KeyWindow::period)
                .thenComparing(KeyWindow::start));
        run(
                sql,
                KEY_USE,
                (rs, ignored) -> {
                    BudgetPeriod period =
                            BudgetPeriod.fromWire(rs.getString("period")).orElseThrow();
                    KeyWindow window = new KeyWindow(
                            rs.getString("account_id"),
                            rs.getString("key_id"),
                            rs.getString("pool"),
                            period,
                            rs.getLong("tokens"),
                            period.windowStart(Instant.ofEpochMilli(rs.getLong("at"))));
                    used.merge(window, rs.getLong("used"), Long::sum);
                },
                mismatches);
        used.forEach((window, tokens) -> {
            if (tokens > window.tokens()) {
                mismatches.add(new Mismatch(
                        window.accountId(),
                        "key " + window.keyId() + " used " + tokens + " of pool " + window.pool() + " in the "
                                + window.period().wire() + " from " + window.start() + ", above its budget of "
                                + window.tokens()));
            }
        });
    }

    /** Runs one check over its statement's rows, as they stream in. */
    private static void run(Handle sql, String statement, Check check, List<Mismatch> mismatches) {
        sql.createQuery(statement).setFetchSize(FETCH_SIZE).reduceResultSet(mismatches, (found, rs, ctx) -> {
            check.row(rs, found);
            return found;
        });
    }

    private static void checkBalance(ResultSet rs, List<Mismatch> mismatches) throws SQLException {
        String pool = rs.getString(2);
        if (!Pools.DEFAULT.equals(pool)) {
            List<Mismatch> ofPool = new ArrayList<>();
            checkPoolBalance(rs, ofPool);
            ofPool.forEach(m -> mismatches.add(new Mismatch(m.accountId(), "pool " + pool + ": " + m.problem())));
            return;
        }
        checkPoolBalance(rs, mismatches);
    }

    private static void checkPoolBalance(ResultSet rs, List<Mismatch> mismatches) throws SQLException {
        String account = rs.getString(1);
        long balance = rs.getLong(3);
        long ledgerSum = rs.getLong(4);
        long granted = rs.getLong(5);
        long kept = rs.getLong(6);
        long held = rs.getLong(7);
        long inGrants = rs.getLong(8);
        if (balance < 0) {
            mismatches.add(new Mismatch(account, "balance " + balance + " is negative"));
        }
        if (balance != ledgerSum) {
            mismatches.add(new Mismatch(account, "balance " + balance + " != sum of ledger entries " + ledgerSum));
        }
        if (balance != granted - kept - held) {
            mismatches.add(new Mismatch(
                    account,
                    "balance " + balance + " != credits, allowances and expiries " + granted + " - unreverted spending "
                            + kept + " - held by live reservations " + held));
        }
        if (balance != inGrants) {
            mismatches.add(new Mismatch(account, "balance " + balance + " != tokens left in its grants " + inGrants));
        }
        checkNewestLine(account, Rows.optionalLong(rs, "newest"), Rows.optionalLong(rs, "last_line_at"), mismatches);
    }

    /**
     * An account keeps the time of its newest ledger line (V181), so that no later line is stamped before
     * it: a line newer than what the account keeps would let the next one go back in time.
     */
    private static void checkNewestLine(
            String account, Optional<Long> newestLine, Optional<Long> lastLineAt, List<Mismatch> mismatches) {
        if (newestLine.isPresent() && (lastLineAt.isEmpty() || lastLineAt.get() < newestLine.get())) {
            mismatches.add(new Mismatch(
                    account,
                    "newest ledger line at " + Instant.ofEpochMilli(newestLine.get()) + " is after the account's"
                            + " last line time "
                            + lastLineAt
                                    .map(Instant::ofEpochMilli)
                                    .map(Instant::toString)
                                    .orElse("(none)")));
        }
    }

    /** An SLA credit is its tier's share of that period's allowance, granted by one grant with one line. */
    private static void checkSlaCredit(ResultSet rs, List<Mismatch> mismatches) throws SQLException {
        String account = rs.getString(1);
        Instant period = Instant.ofEpochMilli(rs.getLong(2));
        long amount = rs.getLong(5);
        long expected = Math.multiplyExact(rs.getLong(3), rs.getLong(4)) / 100;
        boolean granted = rs.getString(6) != null;
        if (amount != expected && amount != 0) {
            mismatches.add(new Mismatch(account, "SLA credit of " + period + " is " + amount + ", not " + expected));
        }
        if (granted != (amount > 0) || (granted && (rs.getLong(7) != amount || rs.getLong(8) != 1))) {
            mismatches.add(new Mismatch(
                    account,
                    "SLA credit of " + period + " (" + amount + ") has grant " + rs.getString(6) + " of "
                            + rs.getLong(7) + " tokens and " + rs.getLong(8) + " sla_credit lines"));
        }
    }

    private static void reportTwoAllowances(ResultSet rs, List<Mismatch> mismatches) throws SQLException {
        mismatches.add(new Mismatch(
                rs.getString(1),
                "the period from " + Instant.ofEpochMilli(rs.getLong(2)) + " got " + rs.getLong(3)
                        + " allowances in pool " + rs.getString(4)));
    }

    private static void reportOverlappingAllowance(ResultSet rs, List<Mismatch> mismatches) throws SQLException {
        mismatches.add(new Mismatch(
                rs.getString(1),
                "allowance grant " + rs.getString(2) + " in pool " + rs.getString(5) + " was still live when the plan"
                        + " change's grant " + rs.getString(3) + " started at "
                        + Instant.ofEpochMilli(rs.getLong(4)) + ": two allowances at once"));
    }

    private static void reportOrphans(ResultSet rs, List<Mismatch> mismatches) throws SQLException {
        mismatches.add(
                new Mismatch(rs.getString(1), "has " + rs.getLong(3) + " " + rs.getString(2) + " but no account row"));
    }

    private static void checkSpending(ResultSet rs, List<Mismatch> mismatches) throws SQLException {
        String spending = rs.getString(1);
        String account = rs.getString(2);
        boolean reverted = "reverted".equals(rs.getString(3));
        long amount = rs.getLong(4);
        long revertedAmount = rs.getLong(5);
        long refunded = rs.getLong(6);
        long spends = rs.getLong(7);
        long drawn = rs.getLong(8);
        long returned = rs.getLong(9);
        long grants = rs.getLong(10);
        if (spends != 1) {
            mismatches.add(new Mismatch(account, "spending " + spending + " has " + spends + " spend entries"));
        }
        if (revertedAmount < 0 || revertedAmount > amount || reverted != (revertedAmount == amount)) {
            mismatches.add(new Mismatch(
                    account,
                    "spending " + spending + " of " + amount + " is " + rs.getString(3) + " with " + revertedAmount
                            + " reverted"));
        }
        if (refunded != revertedAmount) {
            mismatches.add(new Mismatch(
                    account,
                    "spending " + spending + " has " + revertedAmount + " reverted but revert lines of " + refunded));
        }
        // A spending reverted before grants existed has no record of them; every other one drew its amount.
        if ((grants > 0 || !reverted) && drawn != amount) {
            mismatches.add(new Mismatch(
                    account, "spending " + spending + " of " + amount + " drew " + drawn + " from grants"));
        }
        if (grants > 0 && returned != revertedAmount) {
            mismatches.add(new Mismatch(
                    account,
                    "spending " + spending + " has " + revertedAmount + " reverted and returned " + returned
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

    private static void checkReservation(ResultSet rs, List<Mismatch> mismatches) throws SQLException {
        String reservation = rs.getString(1);
        String account = rs.getString(2);
        boolean held = "held".equals(rs.getString(3));
        long amount = rs.getLong(4);
        long settled = rs.getLong(5);
        long spent = rs.getLong(6);
        boolean hasSpending = !rs.wasNull();
        long holds = rs.getLong(7);
        long heldByLines = rs.getLong(8);
        long releases = rs.getLong(9);
        long released = rs.getLong(10);
        long drawn = rs.getLong(11);
        long returned = rs.getLong(12);
        if (holds != 1 || heldByLines != -amount) {
            mismatches.add(new Mismatch(
                    account,
                    "reservation " + reservation + " of " + amount + " has " + holds + " hold lines of "
                            + heldByLines));
        }
        if (releases != (held ? 0 : 1) || released != (held ? 0 : amount)) {
            mismatches.add(new Mismatch(
                    account,
                    "reservation " + reservation + " is " + rs.getString(3) + " with " + releases + " release lines of "
                            + released));
        }
        if (settled < 0 || settled > amount || (settled > 0) != hasSpending || (hasSpending && spent != settled)) {
            mismatches.add(new Mismatch(
                    account,
                    "reservation " + reservation + " of " + amount + " settled " + settled + " as a spending of "
                            + (hasSpending ? spent : "none")));
        }
        if (drawn != amount || returned != (held ? 0 : amount)) {
            mismatches.add(new Mismatch(
                    account,
                    "reservation " + reservation + " is " + rs.getString(3) + " and drew " + drawn + ", returned "
                            + returned + " of its " + amount));
        }
    }
}
