package dev.pulseledger.store;

import java.sql.Array;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Types;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * A statement written with named parameters ({@code :name}), parsed once into JDBC's {@code ?} and the
 * positions of each name, and bound by name: no running index to keep in step with the text. A name may
 * stand in several places; PostgreSQL's {@code ::type} casts and quoted text are left alone.
 */
public final class NamedSql {
    private final String sql;
    private final Map<String, int[]> positions;

    private NamedSql(String sql, Map<String, int[]> positions) {
        this.sql = sql;
        this.positions = positions;
    }

    /** Parses {@code text}; fails on a statement with no parameter name after a lone colon. */
    public static NamedSql parse(String text) {
        StringBuilder sql = new StringBuilder(text.length());
        Map<String, List<Integer>> found = new HashMap<>();
        int index = 0;
        boolean quoted = false;
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c == '\'') {
                quoted = !quoted;
            } else if (!quoted && c == ':' && i + 1 < text.length() && text.charAt(i + 1) == ':') {
                sql.append("::");
                i++;
                continue;
            } else if (!quoted && c == ':') {
                int end = i + 1;
                while (end < text.length() && isNamePart(text.charAt(end))) {
                    end++;
                }
                if (end == i + 1) {
                    throw new IllegalArgumentException("A colon without a parameter name at " + i + ": " + text);
                }
                found.computeIfAbsent(text.substring(i + 1, end), name -> new ArrayList<>())
                        .add(++index);
                sql.append('?');
                i = end - 1;
                continue;
            }
            sql.append(c);
        }
        Map<String, int[]> positions = new HashMap<>();
        found.forEach((name, at) ->
                positions.put(name, at.stream().mapToInt(Integer::intValue).toArray()));
        return new NamedSql(sql.toString(), Map.copyOf(positions));
    }

    private static boolean isNamePart(char c) {
        return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_';
    }

    /** The statement as JDBC takes it. */
    public String sql() {
        return sql;
    }

    /** The parameter names it takes. */
    public Set<String> names() {
        return positions.keySet();
    }

    public void setLong(PreparedStatement ps, String name, long value) throws SQLException {
        for (int at : at(name)) {
            ps.setLong(at, value);
        }
    }

    public void setDouble(PreparedStatement ps, String name, double value) throws SQLException {
        for (int at : at(name)) {
            ps.setDouble(at, value);
        }
    }

    public void setBoolean(PreparedStatement ps, String name, boolean value) throws SQLException {
        for (int at : at(name)) {
            ps.setBoolean(at, value);
        }
    }

    public void setString(PreparedStatement ps, String name, @Nullable String value) throws SQLException {
        for (int at : at(name)) {
            ps.setString(at, value);
        }
    }

    /** A number that may be absent: SQL NULL then. */
    public void setNullableLong(PreparedStatement ps, String name, @Nullable Long value) throws SQLException {
        for (int at : at(name)) {
            if (value == null) {
                ps.setNull(at, Types.BIGINT);
            } else {
                ps.setLong(at, value);
            }
        }
    }

    public void setArray(PreparedStatement ps, String name, Array value) throws SQLException {
        for (int at : at(name)) {
            ps.setArray(at, value);
        }
    }

    private int[] at(String name) {
        int[] at = positions.get(name);
        if (at == null) {
            throw new IllegalArgumentException("No parameter :" + name + " in " + sql);
        }
        return at;
    }
}
