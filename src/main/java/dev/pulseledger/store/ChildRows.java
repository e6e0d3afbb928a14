package dev.pulseledger.store;

import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SortedSet;
import java.util.TreeSet;
import org.jdbi.v3.core.Handle;

/** Reads the child rows of many parents in one query (no query per parent): each parent's values, sorted. */
public final class ChildRows {
    private ChildRows() {}

    /**
     * Runs {@code query}, which takes the parents' ids as {@code <ids>} and selects a parent's id and then one
     * value per row, and returns each parent's values by its id; a parent with no rows is left out. No ids run
     * no query (an empty {@code IN ()} is an error on PostgreSQL).
     */
    public static Map<String, SortedSet<String>> sortedByParent(Handle sql, String query, Collection<String> ids) {
        Map<String, SortedSet<String>> children = new HashMap<>();
        if (ids.isEmpty()) {
            return children;
        }
        sql.createQuery(query)
                .bindList("ids", List.copyOf(ids))
                .map((rs, ctx) -> Map.entry(rs.getString(1), rs.getString(2)))
                .forEach(row -> children.computeIfAbsent(row.getKey(), k -> new TreeSet<>())
                        .add(row.getValue()));
        return children;
    }
}
