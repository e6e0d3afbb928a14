package dev.pulseledger.console;

import dev.pulseledger.accounts.Account;
import dev.pulseledger.accounts.AccountStore;
import dev.pulseledger.store.Database;
import dev.pulseledger.store.Dialect;
import dev.pulseledger.store.Page;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;

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
            + " WHERE lower(name)%1$s >= %2$s(lower(?)%1$s, COALESCE((SELECT lower(name)%1$s FROM accounts WHERE id = ?), ''))"
            + " AND lower(name)%1$s < lower(?)%1$s"
            + " AND (lower(name)%1$s, id) >"
            + " (%2$s(lower(?)%1$s, COALESCE((SELECT lower(name)%1$s FROM accounts WHERE id = ?), '')), ?)"
            + " ORDER BY lower(name)%1$s, id LIMIT ?";

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
    static void bind(PreparedStatement ps, String prefix, String afterId, int rows) throws SQLException {
        ps.setString(1, prefix);
        ps.setString(2, afterId);
        ps.setString(3, prefix + LAST_CHARACTER);
        ps.setString(4, prefix);
        ps.setString(5, afterId);
        ps.setString(6, afterId);
        ps.setInt(7, rows);
    }

    /** Accounts whose name starts with {@code prefix}, after the account {@code afterId} ("" for the first page). */
    Page<Account> byNamePrefix(String prefix, String afterId, int limit) {
        return database.readMayLag(connection -> {
            try (PreparedStatement ps = connection.prepareStatement(selectPage)) {
                bind(ps, prefix, afterId, limit + 1);
                List<Account> accounts = new ArrayList<>();
                try (ResultSet rs = ps.executeQuery()) {
                    while (rs.next()) {
                        accounts.add(AccountStore.account(rs));
                    }
                }
                return Page.of(accounts, limit, Account::id);
            }
        });
    }
}
