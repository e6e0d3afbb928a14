package dev.pulseledger.webhooks;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.concurrent.atomic.AtomicLong;

/** What the webhook worker counts: attempts by result, deliveries given up, and the backlog. */
final class WebhookMetrics {
    private final Counter delivered;
    private final Counter retrying;
    private final Counter failed;
    private final AtomicLong backlog = new AtomicLong();

    WebhookMetrics(MeterRegistry registry) {
        this.delivered = attempts(registry, "delivered");
        this.retrying = attempts(registry, "retrying");
        this.failed = attempts(registry, "failed");
        Gauge.builder("pulseledger.webhook.backlog", backlog, AtomicLong::get)
                .description("Webhook deliveries waiting for an attempt, all nodes together (refreshed every 5 s)")
                .register(registry);
    }

    private static Counter attempts(MeterRegistry registry, String result) {
        return Counter.builder("pulseledger.webhook.attempts")
                .description("Webhook delivery attempts by result: delivered, retrying (will be tried again)"
                        + " or failed (the last attempt failed; the delivery is given up)")
                .tag("result", result)
                .register(registry);
    }

    void attempted(boolean succeeded, boolean wasLast) {
        (succeeded ? delivered : wasLast ? failed : retrying).increment();
    }

    void backlog(long pending) {
        backlog.set(pending);
    }
}
