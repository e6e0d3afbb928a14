package dev.pulseledger.webhooks;

import dev.pulseledger.events.Outbox;
import dev.pulseledger.outbound.OutboundClient;
import dev.pulseledger.store.PollingLoop;
import io.micrometer.core.instrument.MeterRegistry;
import java.io.IOException;
import java.io.InputStream;
import java.net.ConnectException;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.random.RandomGenerator;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The webhook sender of one node: claims due deliveries (safely across nodes, see {@link
 * WebhookStore#claim}), posts each signed envelope, and records the attempt with the next retry or
 * the final outcome. Claimed deliveries are sent in parallel, so one slow receiver does not hold up
 * the others for longer than the request timeout.
 */
public final class DeliveryWorker implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(DeliveryWorker.class);

    /** Most deliveries claimed, and so sent in parallel, at once by one node. */
    public static final int MAX_CLAIMED = 16;

    /** The longest wait between two attempts of one delivery. */
    public static final Duration MAX_RETRY_DELAY = Duration.ofHours(1);

    private static final int MAX_ERROR_LENGTH = 300;
    private static final int PRUNE_BATCH = 1000;
    private static final Duration PRUNE_EVERY = Duration.ofHours(1);
    private static final String USER_AGENT = "Pulseledger-Webhooks/1";
    /** How often the backlog gauge is refreshed: a count on each scrape would load the database. */
    private static final Duration BACKLOG_EVERY = Duration.ofSeconds(5);

    /** How the worker polls, retries and times out. */
    public record Settings(Duration pollInterval, int maxAttempts, Duration retryBase, Duration requestTimeout) {}

    private final WebhookStore store;
    private final Outbox outbox;
    private final Settings settings;
    private final Backoff backoff;
    private final WebhookUrls urls;
    private final Clock clock;
    private final OutboundClient client;
    private final PollingLoop loop;
    private final WebhookMetrics metrics;
    private Instant nextPruneAt = Instant.MIN;
    private Instant nextBacklogAt = Instant.MIN;

    private DeliveryWorker(
            WebhookStore store,
            Outbox outbox,
            Settings settings,
            Backoff backoff,
            WebhookUrls urls,
            Clock clock,
            WebhookMetrics metrics) {
        this.store = store;
        this.urls = urls;
        this.metrics = metrics;
        this.outbox = outbox;
        this.settings = settings;
        this.backoff = backoff;
        this.clock = clock;
        this.client = new OutboundClient(settings.requestTimeout());
        this.loop = new PollingLoop("webhook worker", settings.pollInterval(), () -> {
            int claimed = deliverDue();
            pruneIfDue();
            countBacklogIfDue();
            return claimed >= MAX_CLAIMED;
        });
    }

    /** A worker that delivers once started. */
    public static DeliveryWorker create(
            WebhookStore store,
            Outbox outbox,
            Settings settings,
            WebhookUrls urls,
            Clock clock,
            RandomGenerator random,
            MeterRegistry registry) {
        // --webhook-retry-base-ms is at most an hour, so the cap never falls below the base.
        Backoff backoff = new Backoff(settings.retryBase(), MAX_RETRY_DELAY, random);
        return new DeliveryWorker(store, outbox, settings, backoff, urls, clock, new WebhookMetrics(registry));
    }

    public DeliveryWorker start() {
        loop.start();
        return this;
    }

    /** Claims what is due and delivers it; returns how many deliveries were claimed. */
    private int deliverDue() {
        Instant now = clock.instant();
        String claim = UUID.randomUUID().toString();
        Instant leaseUntil = now.plus(lease());
        List<ClaimedDelivery> claimed = store.claim(claim, now, leaseUntil, MAX_CLAIMED);
        if (claimed.isEmpty()) {
            return 0;
        }
        try (ExecutorService senders = Executors.newVirtualThreadPerTaskExecutor()) {
            for (ClaimedDelivery delivery : claimed) {
                senders.execute(() -> deliver(delivery, claim));
            }
        }
        return claimed.size();
    }

    /** Long enough for the slowest attempt to end before another node may take the delivery. */
    private Duration lease() {
        return settings.requestTimeout().multipliedBy(2).plusSeconds(30);
    }

    private void deliver(ClaimedDelivery delivery, String claim) {
        try {
            Delivery.Attempt attempt = send(delivery);
            if (attempt.succeeded()) {
                store.finish(delivery, claim, attempt, DeliveryStatus.DELIVERED, Optional.empty());
            } else if (delivery.attempt() >= settings.maxAttempts()) {
                LOG.info("Giving up on {} after {} attempts", delivery, delivery.attempt());
                store.finish(delivery, claim, attempt, DeliveryStatus.FAILED, Optional.empty());
            } else {
                Instant retryAt = clock.instant().plus(backoff.after(delivery.attempt()));
                store.finish(delivery, claim, attempt, DeliveryStatus.PENDING, Optional.of(retryAt));
            }
            metrics.attempted(attempt.succeeded(), delivery.attempt() >= settings.maxAttempts());
        } catch (RuntimeException e) {
            // The lease runs out and another attempt follows; nothing is lost.
            LOG.warn("Recording {} failed: {}", delivery, e.toString());
        }
    }

    private Delivery.Attempt send(ClaimedDelivery delivery) {
        Instant startedAt = clock.instant();
        long startNanos = System.nanoTime();
        Optional<Integer> statusCode = Optional.empty();
        Optional<String> error = urls.refuseDelivery(delivery.url()).map(why -> "not sent: " + why);
        if (error.isPresent()) {
            return new Delivery.Attempt(delivery.attempt(), startedAt, 0, statusCode, error);
        }
        try {
            HttpResponse<InputStream> response =
                    client.get().send(request(delivery, startedAt), HttpResponse.BodyHandlers.ofInputStream());
            // The body is not needed; closing it at once keeps a receiver from holding the worker.
            response.body().close();
            statusCode = Optional.of(response.statusCode());
            if (response.statusCode() < 200 || response.statusCode() > 299) {
                error = Optional.of("the receiver answered HTTP " + response.statusCode());
            }
        } catch (HttpTimeoutException e) {
            error = Optional.of("no answer within " + settings.requestTimeout().toMillis() + " ms");
        } catch (ConnectException e) {
            error = Optional.of("could not connect: " + describe(e));
        } catch (IOException | IllegalArgumentException e) {
            error = Optional.of(describe(e));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            error = Optional.of("interrupted while sending (node shutting down)");
        }
        long durationMillis = (System.nanoTime() - startNanos) / 1_000_000;
        return new Delivery.Attempt(delivery.attempt(), startedAt, durationMillis, statusCode, error);
    }

    private HttpRequest request(ClaimedDelivery delivery, Instant at) {
        return HttpRequest.newBuilder(URI.create(delivery.url()))
                .timeout(settings.requestTimeout())
                .header("Content-Type", "application/json")
                .header("User-Agent", USER_AGENT)
                .header("Pulseledger-Event-Id", delivery.eventId())
                .header("Pulseledger-Event-Type", delivery.eventType().wire())
                .header("Pulseledger-Delivery-Id", delivery.deliveryId())
                .header("Pulseledger-Delivery-Attempt", Integer.toString(delivery.attempt()))
                // The event id is the message id: the same on every retry, so receivers can drop duplicates.
                .header(WebhookSignature.ID, delivery.eventId())
                .header(WebhookSignature.TIMESTAMP, Long.toString(at.getEpochSecond()))
                .header(
                        WebhookSignature.SIGNATURE,
                        WebhookSignature.standard(
                                delivery.secret(), delivery.eventId(), at.getEpochSecond(), delivery.payload()))
                .header(
                        WebhookSignature.LEGACY_HEADER,
                        WebhookSignature.legacy(delivery.secret(), at.getEpochSecond(), delivery.payload()))
                .POST(HttpRequest.BodyPublishers.ofString(delivery.payload()))
                .build();
    }

    /** A short description of a failure for the delivery log; it never holds the secret or headers. */
    private static String describe(Exception e) {
        String text = e.getClass().getSimpleName() + (e.getMessage() == null ? "" : ": " + e.getMessage());
        return text.length() <= MAX_ERROR_LENGTH ? text : text.substring(0, MAX_ERROR_LENGTH);
    }

    private void countBacklogIfDue() {
        Instant now = clock.instant();
        if (!now.isBefore(nextBacklogAt)) {
            nextBacklogAt = now.plus(BACKLOG_EVERY);
            metrics.backlog(store.pendingCount());
        }
    }

    /** Once an hour, deletes finished deliveries and events older than the outbox's retention. */
    private void pruneIfDue() {
        Instant now = clock.instant();
        if (now.isBefore(nextPruneAt)) {
            return;
        }
        nextPruneAt = now.plus(PRUNE_EVERY);
        Instant cutoff = now.minus(Outbox.RETENTION);
        while (loop.running() && store.prune(cutoff, PRUNE_BATCH) == PRUNE_BATCH) {
            // keep going: each round is one short transaction
        }
        while (loop.running() && outbox.prune(cutoff, PRUNE_BATCH) == PRUNE_BATCH) {
            // likewise
        }
    }

    /** Stops claiming; deliveries in flight finish or, if cut off, are retried after their lease. */
    @Override
    public void close() {
        loop.stop(settings.requestTimeout().plusSeconds(1));
        try {
            // Ends the client's selector thread too; an attempt still running past the join is cut off.
            client.shutdownNow(Duration.ofSeconds(1));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
