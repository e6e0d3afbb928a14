package dev.pulseledger.accounts;

import java.util.Arrays;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.jspecify.annotations.Nullable;

/**
 * Credit pools (CONTRACT §14): their names, their limits, and the plain text in which the database keeps a
 * plan's pools ({@code images=500/0 embeddings=1000/0}) and an account's ({@code embeddings images}).
 */
public final class Pools {
    /** The pool of every call that names none. */
    public static final String DEFAULT = "default";
    /** The most pools one account may have, {@code default} included. */
    public static final int MAX_PER_ACCOUNT = 16;

    private static final Pattern NAME = Pattern.compile("[a-z0-9][a-z0-9-]{0,31}");

    private Pools() {}

    public static boolean validName(String name) {
        return NAME.matcher(name).matches();
    }

    /** A plan's named pools as stored; null when it has none. */
    public static @Nullable String encodePlanPools(Map<String, PoolAllowance> pools) {
        return pools.isEmpty()
                ? null
                : pools.entrySet().stream()
                        .map(e -> e.getKey() + "=" + e.getValue().allowance() + "/"
                                + e.getValue().rollover())
                        .collect(Collectors.joining(" "));
    }

    /** A plan's named pools from their stored text (null or empty: none), in name order. */
    public static Map<String, PoolAllowance> decodePlanPools(@Nullable String text) {
        Map<String, PoolAllowance> pools = new LinkedHashMap<>();
        if (text == null || text.isBlank()) {
            return pools;
        }
        for (String entry : new TreeSet<>(Arrays.asList(text.trim().split(" ")))) {
            int equals = entry.indexOf('=');
            int slash = entry.indexOf('/', equals);
            pools.put(
                    entry.substring(0, equals),
                    new PoolAllowance(
                            Long.parseLong(entry.substring(equals + 1, slash)),
                            Long.parseLong(entry.substring(slash + 1))));
        }
        return pools;
    }

    /** An account's named pools as stored; null when it has none. */
    public static @Nullable String encodeNames(Collection<String> names) {
        return names.isEmpty() ? null : String.join(" ", new TreeSet<>(names));
    }

    /** An account's named pools from their stored text. */
    public static Set<String> decodeNames(@Nullable String text) {
        return text == null || text.isBlank() ? Set.of() : Set.of(text.trim().split(" "));
    }
}
