package dev.pulseledger.ledger.db;

import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * The columns the ledger's hot writes fill, one list per table, shared by both databases' SQL
 * ({@link PostgresLedgerSql}, {@link SqliteLedgerSql}) and checked against each migrated schema by a test.
 */
public final class LedgerTables {
    public static final Table SPENDINGS = new Table(
            "spendings",
            List.of(
                    "id",
                    "account_id",
                    "amount",
                    "status",
                    "created_at",
                    "reverted_at",
                    "grant_id",
                    "pool",
                    "key_id",
                    "key_used_at"));
    public static final Table GRANTS = new Table(
            "grants",
            List.of(
                    "id",
                    "account_id",
                    "kind",
                    "amount",
                    "remaining",
                    "expired",
                    "expires_at",
                    "period_start",
                    "created_at",
                    "pool"));
    public static final Table SPENDING_GRANTS =
            new Table("spending_grants", List.of("spending_id", "grant_id", "amount", "returned"));
    public static final Table LEDGER_ENTRIES = new Table(
            "ledger_entries",
            List.of(
                    "account_id",
                    "kind",
                    "amount",
                    "balance_after",
                    "spending_id",
                    "grant_id",
                    "reason",
                    "created_at",
                    "pool"));
    public static final Table RESERVATIONS = new Table(
            "reservations",
            List.of(
                    "id",
                    "account_id",
                    "amount",
                    "status",
                    "created_at",
                    "expires_at",
                    "settled_amount",
                    "spending_id",
                    "ended_at",
                    "end_balance",
                    "pool",
                    "key_id",
                    "grant_id"));
    public static final List<Table> ALL = List.of(SPENDINGS, GRANTS, SPENDING_GRANTS, LEDGER_ENTRIES, RESERVATIONS);

    private LedgerTables() {}

    /** A table and the columns a write fills, in the order its SQL lists them. */
    public record Table(String name, List<String> columns) {
        public Table {
            columns = List.copyOf(columns);
        }

        /** {@code a, b, c}: the column list of an INSERT. */
        public String columnList() {
            return String.join(", ", columns);
        }

        /** An INSERT of one row whose parameters are named after the columns. */
        public String insert() {
            return "INSERT INTO " + name + " (" + columnList() + ") VALUES ("
                    + columns.stream().map(column -> ":" + column).collect(Collectors.joining(", ")) + ")";
        }

        /** The same table with more columns, which one database's schema has besides. */
        public Table with(String... more) {
            return new Table(
                    name, Stream.concat(columns.stream(), Stream.of(more)).toList());
        }
    }
}
