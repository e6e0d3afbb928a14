package dev.pulseledger.accounts;

import dev.pulseledger.store.Database;
import dev.pulseledger.store.Rows;
import dev.pulseledger.store.Sql;
import java.util.Optional;
import org.jdbi.v3.core.Handle;

/**
 * SQL for low-balance thresholds: a plan's applies to each of its accounts unless the account has
 * its own. The spend path reads the effective one with the balance it locks (ledger.db.JdbcLedgerStore).
 */
public final class LowBalanceThresholds {
    private static final String UPDATE_PLAN = "UPDATE plans SET low_balance_threshold = :threshold WHERE id = :id";
    private static final String SELECT_PLAN = "SELECT low_balance_threshold FROM plans WHERE id = :id";
    private static final String UPDATE_ACCOUNT =
            "UPDATE accounts SET low_balance_threshold = :threshold WHERE id = :id";
    private static final String SELECT_ACCOUNT =
            "SELECT a.low_balance_threshold AS own, p.low_balance_threshold AS plan"
                    + " FROM accounts a JOIN plans p ON p.id = a.plan_id WHERE a.id = :id";

    /** A plan's threshold; empty when it has none. */
    public record PlanThreshold(String planId, Optional<Long> threshold) {}

    /** An account's own threshold and its plan's; its own wins. */
    public record AccountThreshold(String accountId, Optional<Long> own, Optional<Long> plan) {
        public Optional<Long> effective() {
            return own.or(() -> plan);
        }
    }

    private final Database database;

    public LowBalanceThresholds(Database database) {
        this.database = database;
    }

    /** Sets or (with empty) clears the plan's threshold; empty when there is no such plan. */
    public Optional<PlanThreshold> setForPlan(String planId, Optional<Long> threshold) {
        return set(UPDATE_PLAN, planId, threshold) ? forPlan(planId) : Optional.empty();
    }

    /** Sets or (with empty) clears the account's own threshold; empty when there is no such account. */
    public Optional<AccountThreshold> setForAccount(String accountId, Optional<Long> threshold) {
        return set(UPDATE_ACCOUNT, accountId, threshold) ? forAccount(accountId) : Optional.empty();
    }

    private boolean set(String statement, String id, Optional<Long> threshold) {
        return database.inTransaction(connection -> {
            try (Handle sql = Sql.on(connection)) {
                return sql.createUpdate(statement)
                                .bind("threshold", threshold.orElse(null))
                                .bind("id", id)
                                .execute()
                        == 1;
            }
        });
    }

    public Optional<PlanThreshold> forPlan(String planId) {
        return database.read(connection -> {
            try (Handle sql = Sql.on(connection)) {
                return sql.createQuery(SELECT_PLAN)
                        .bind("id", planId)
                        .map((rs, ctx) -> new PlanThreshold(planId, Rows.optionalLong(rs, "low_balance_threshold")))
                        .findOne();
            }
        });
    }

    public Optional<AccountThreshold> forAccount(String accountId) {
        return database.read(connection -> {
            try (Handle sql = Sql.on(connection)) {
                return sql.createQuery(SELECT_ACCOUNT)
                        .bind("id", accountId)
                        .map((rs, ctx) -> new AccountThreshold(
                                accountId, Rows.optionalLong(rs, "own"), Rows.optionalLong(rs, "plan")))
                        .findOne();
            }
        });
    }
}
