package dev.pulseledger.console;

import dev.pulseledger.accounts.Account;
import dev.pulseledger.accounts.AccountStore;
import dev.pulseledger.store.Database;
import dev.pulseledger.store.Dialect;
import dev.pulseledger.store.Page;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.util.ArrayList;
import java.util.List;

/**
 * Finds accounts by the start of their name, case-insensitively, a page at a time. The range
 * {@code lower(name) >= prefix AND lower(name) < prefix + U+FFFF} and the keyset on
 * {@code (lower(name), id)} both run on the index {@code accounts_name_search}, so a page costs the
 * same at a million accounts as at ten.
 */
final class AccountSearch {
    /** %1$s makes PostgreSQL compare as the index does (its "C" collation); SQLite compares bytes anyway. */
    private static final String SELECT_PAGE = "SELECT " + AccountStore.COLUMNS + " FROM accounts"
            + " WHERE lower(name)%1$s >= lower(?)%1$s AND lower(name)%1$s < lower(?)%1$s"
            + " AND (lower(name)%1$s, id) > (COALESCE((SELECT lower(name)%1$s FROM accounts WHERE id = ?), ''), ?)"
            + " ORDER BY lower(name)%1$s, id LIMIT ?";

    private static final String LAST_CHARACTER = "\uffff";

    private final Database database;
    private final String selectPage;

    AccountSearch(Database database) {
        this.database = database;
        this.selectPage = SELECT_PAGE.formatted(database.dialect() == Dialect.POSTGRESQL ? " COLLATE \"C\"" : "");
    }

    /** Accounts whose name starts with {@code prefix}, after the account {@code afterId} ("" for the first page). */
    Page<Account> byNamePrefix(String prefix, String afterId, int limit) {
        return database.read(connection -> {
            try (PreparedStatement ps = connection.prepareStatement(selectPage)) {
                ps.setString(1, prefix);
                ps.setString(2, prefix + LAST_CHARACTER);
                ps.setString(3, afterId);
                ps.setString(4, afterId);
                ps.setInt(5, limit + 1);
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
