package dev.pulseledger.http;

import java.time.Duration;
import java.util.concurrent.Semaphore;

/**
 * Holds a flood refusal for a while before it is sent. A client that waits for each answer, as an
 * HTTP/1.1 client does on each of its connections, then sends at most one request per connection per
 * hold, and a held request costs a parked virtual thread, not CPU. At most {@code maxHeld} are held
 * at once, so that held refusals never take all of the node's request slots; beyond that, refusals
 * are sent at once.
 */
public final class RefusalHold {
    private final Duration hold;
    private final int maxHeld;
    private final Semaphore slots;

    public RefusalHold(Duration hold, int maxHeld) {
        this.hold = hold;
        this.maxHeld = maxHeld;
        this.slots = new Semaphore(maxHeld);
    }

    /** Waits out the hold when a slot is free; false, at once, when there is no hold or no free slot. */
    boolean hold() {
        if (hold.isZero() || !slots.tryAcquire()) {
            return false;
        }
        try {
            Thread.sleep(hold);
        } catch (InterruptedException e) {
            // The node is stopping: the refusal goes out now.
            Thread.currentThread().interrupt();
        } finally {
            slots.release();
        }
        return true;
    }

    /** Refusals being held right now. */
    int held() {
        return maxHeld - slots.availablePermits();
    }
}
