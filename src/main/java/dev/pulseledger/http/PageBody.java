package dev.pulseledger.http;

import dev.pulseledger.store.Page;
import java.util.List;
import java.util.function.Function;
import org.jspecify.annotations.Nullable;

/** One page of a list as a response body; {@code nextCursor} is null on the last page. */
public record PageBody<T>(List<T> data, @Nullable String nextCursor) {
    public static <I, T> PageBody<T> of(Page<I> page, Function<I, T> json) {
        return new PageBody<>(
                page.items().stream().map(json).toList(),
                page.nextPosition().map(Cursors::encode).orElse(null));
    }
}
