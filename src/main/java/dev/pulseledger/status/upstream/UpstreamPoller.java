package dev.pulseledger.status.upstream;

import dev.pulseledger.events.Outbox;
import dev.pulseledger.status.services.ServiceStore;
import dev.pulseledger.store.Database;
import dev.pulseledger.store.ScheduledSweep;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * Reads every due upstream in the background and applies what it says: on each node a sweep claims
 * the upstreams due now (each claimed by one node only), reads them with their last tag, and records
 * the status, or the failure, leaving the service's last status as it was.
 */
public final class UpstreamPoller implements AutoCloseable {
    /** Upstreams one batch reads; each read is bounded by the fetcher's timeouts. */
    private static final int BATCH_SIZE = 20;

    private static final int MAX_BATCHES_PER_RUN = 5;

    /** How often a node looks for due upstreams, whatever the poll interval (a cheap indexed query). */
    private static final Duration LOOK_EVERY = Duration.ofSeconds(5);

    private final UpstreamStore store;
    private final UpstreamStatusWriter writer;
    private final UpstreamFetcher fetcher;
    private final Clock clock;
    private final Duration pollInterval;
    private final Runnable onChange;
    private final ScheduledSweep sweep;

    /** What the poller reads and writes: upstreams, and the services whose status they set. */
    public record Stores(Database database, UpstreamStore upstreams, ServiceStore services, Outbox outbox) {}

    public UpstreamPoller(
            Stores stores, UpstreamFetcher fetcher, Clock clock, Duration pollInterval, Runnable onChange) {
        this.store = stores.upstreams();
        this.writer =
                new UpstreamStatusWriter(stores.database(), stores.upstreams(), stores.services(), stores.outbox());
        this.fetcher = fetcher;
        this.clock = clock;
        this.pollInterval = pollInterval;
        this.onChange = onChange;
        Duration look = pollInterval.compareTo(LOOK_EVERY) < 0 ? pollInterval : LOOK_EVERY;
        this.sweep = new ScheduledSweep(
                "upstream-poller", new ScheduledSweep.Limits(look, BATCH_SIZE, MAX_BATCHES_PER_RUN), this::take);
    }

    public UpstreamPoller start() {
        sweep.start(Duration.ZERO);
        return this;
    }

    /** One run now, for tests and the sweep. */
    public int runOnce() {
        return sweep.runOnce();
    }

    private int take(int batchSize) {
        List<Upstream> claimed = store.claimDue(clock.instant(), pollInterval, batchSize);
        claimed.forEach(this::poll);
        return claimed.size();
    }

    private void poll(Upstream upstream) {
        UpstreamFetcher.Result result = fetcher.fetch(upstream.url(), upstream.etag());
        Instant now = clock.instant();
        switch (result) {
            case UpstreamFetcher.Result.Fetched fetched -> {
                switch (UpstreamDocument.status(fetched.body(), upstream.component())) {
                    case UpstreamDocument.Reading.Status status -> {
                        if (writer.apply(upstream, fetched.etag(), Optional.of(status.status()), now)) {
                            onChange.run();
                        }
                    }
                    case UpstreamDocument.Reading.Unreadable unreadable ->
                        store.recordFailure(upstream, unreadable.reason(), now);
                }
            }
            case UpstreamFetcher.Result.NotModified notModified ->
                writer.apply(upstream, upstream.etag(), Optional.empty(), now);
            case UpstreamFetcher.Result.Failed failed -> store.recordFailure(upstream, failed.reason(), now);
        }
    }

    @Override
    public void close() {
        sweep.close();
        fetcher.close();
    }
}
