package dev.pulseledger.store;

import java.util.List;
import java.util.Optional;
import java.util.function.Function;

/** One page of a list and the position after its last item, when more may follow. */
public record Page<T>(List<T> items, Optional<String> nextPosition) {
    /**
     * Builds a page from up to {@code limit + 1} fetched rows: the extra row only tells that more
     * follow.
     */
    public static <T> Page<T> of(List<T> fetched, int limit, Function<T, String> position) {
        if (fetched.size() <= limit) {
            return new Page<>(List.copyOf(fetched), Optional.empty());
        }
        List<T> items = List.copyOf(fetched.subList(0, limit));
        return new Page<>(items, Optional.of(position.apply(items.get(limit - 1))));
    }
}
