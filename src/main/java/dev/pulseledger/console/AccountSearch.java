package dev.pulseledger.console;

import dev.pulseledger.accounts.Account;
import dev.pulseledger.accounts.AccountStore;
import dev.pulseledger.store.Database;
import dev.pulseledger.store.Dialect;
import dev.pulseledger.store.Page;
import dev.pulseledger.store.Sql;
import java.util.List;
import org.jdbi.v3.core.Handle;
import org.jdbi.v3.core.statement.Query;

/**
 * Finds accounts by the start of their name, case-insensitively, a page at a time, on the index
 * {@code accounts_name_search (lower(name), id)}. A page starts where it should in that index: at
 * the prefix, or just after the previous page's last account (keyset paging), whichever is later.
 * Both lower bounds (the name alone, and the (name, id) pair) hold that same start, because
 * PostgreSQL cannot tell which of two different bounds is tighter and may start from the looser
 * one, reading every index entry before the prefix. So a page costs the same at a million accounts
 * as at ten, for any prefix and any page.
 */
final class AccountSearch {
    /**
     * %1$s makes PostgreSQL compare as the index does (its "C" collation; SQLite compares bytes
     * anyway); %2$s is the dialect's two-argument maximum.
     */
    private static final String SELECT_PAGE = "SELECT " + AccountStore.COLUMNS + " FROM accounts"
            + " WHERE lower(name)%1$s >= %2$s(lower(:prefix)%1$s,"
            + " COALESCE((SELECT lower(name)%1$s FROM accounts WHERE id = :after_id), ''))"
            + " AND lower(name)%1$s < lower(:prefix_end)%1$s"
            + " AND (lower(name)%1$s, id) >"
            + " (%2$s(lower(:prefix)%1$s, COALESCE((SELECT lower(name)%1$s FROM accounts WHERE id = :after_id), '')),"
            + " :after_id) ORDER BY lower(name)%1$s, id LIMIT :rows";

    /** U+10FFFF: its UTF-8 bytes sort after every other character's, so no name with the prefix is left out. */
    private static final String LAST_CHARACTER = "\uDBFF\uDFFF";

    private final Database database;
    private final String selectPage;

    AccountSearch(Database database) {
        this.database = database;
        this.selectPage = sql(database.dialect());
    }

    /** The page query as this dialect runs it; the plan test explains exactly this. */
    static String sql(Dialect dialect) {
        return dialect == Dialect.POSTGRESQL
                ? SELECT_PAGE.formatted(" COLLATE \"C\"", "GREATEST")
                : SELECT_PAGE.formatted("", "max");
    }

    /** Binds the page query's parameters; the plan test binds them the same way. */
    static Query bind(Query query, String prefix, String afterId, int rows) {
        return query.bind("prefix", prefix)
                .bind("after_id", afterId)
                .bind("prefix_end", prefix + LAST_CHARACTER)
                .bind("rows", rows);
    }

    /** Accounts whose name starts with {@code prefix}, after the account {@code afterId} ("" for the first page). */
    Page<Account> byNamePrefix(String prefix, String afterId, int limit) {
        return database.readMayLag(connection -> {
            try (Handle sql = Sql.on(connection)) {
                List<Account> accounts = bind(sql.createQuery(selectPage), prefix, afterId, limit + 1)
                        .map((rs, ctx) -> AccountStore.account(rs))
                        .list();
                return Page.of(accounts, limit, Account::id);
            }
        });
    }
}
