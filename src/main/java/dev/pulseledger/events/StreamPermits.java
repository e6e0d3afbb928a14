package dev.pulseledger.events;

import dev.pulseledger.http.ProblemCode;
import dev.pulseledger.http.ProblemException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Bounds the open event streams of this node: a few per caller key, so one caller cannot hold many
 * connections, and a total, so the node keeps serving everyone else.
 */
final class StreamPermits {
    private final int perKey;
    private final int perNode;
    private final ConcurrentHashMap<String, Integer> openByKey = new ConcurrentHashMap<>();
    private final AtomicInteger open = new AtomicInteger();

    StreamPermits(int perKey, int perNode) {
        this.perKey = perKey;
        this.perNode = perNode;
    }

    /** Streams open on this node now. */
    int open() {
        return open.get();
    }

    /** A permit for one more stream of the key, or the problem that refuses it. */
    Permit acquire(String keyId) {
        if (open.incrementAndGet() > perNode) {
            open.decrementAndGet();
            throw new ProblemException(
                            ProblemCode.TOO_MANY_STREAMS_ON_NODE,
                            "This node serves as many event streams as it can; retry shortly.")
                    .withHeader("Retry-After", "5");
        }
        boolean[] granted = {false};
        openByKey.compute(keyId, (key, count) -> {
            int current = count == null ? 0 : count;
            granted[0] = current < perKey;
            return granted[0] ? current + 1 : current;
        });
        if (!granted[0]) {
            open.decrementAndGet();
            // A place frees when one of the key's streams ends; a client that waits a little finds it.
            throw new ProblemException(
                            ProblemCode.TOO_MANY_STREAMS,
                            "At most " + perKey + " event streams may be open per API key on one node;"
                                    + " close one before opening another.")
                    .withHeader("Retry-After", "5");
        }
        return new Permit(keyId);
    }

    /** One open stream; closing it frees its place. */
    final class Permit implements AutoCloseable {
        private final String keyId;
        private boolean closed;

        private Permit(String keyId) {
            this.keyId = keyId;
        }

        @Override
        public void close() {
            if (closed) {
                return;
            }
            closed = true;
            openByKey.computeIfPresent(keyId, (key, count) -> count <= 1 ? null : count - 1);
            open.decrementAndGet();
        }
    }
}
