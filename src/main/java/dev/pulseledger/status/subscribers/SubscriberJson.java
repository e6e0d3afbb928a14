package dev.pulseledger.status.subscribers;

import com.fasterxml.jackson.annotation.JsonInclude;
import dev.pulseledger.http.Times;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/** The operator API's JSON for subscribers. */
final class SubscriberJson {
    private SubscriberJson() {}

    /** One subscriber: {@code services} is null when it follows every service. */
    record SubscriberBody(
            String id,
            String type,
            @Nullable String email,
            @Nullable String url,
            @Nullable List<String> services,
            String status,
            String createdAt,
            @Nullable String confirmedAt) {}

    /** A webhook subscriber just made, with its signing secret (shown this once). */
    record NewWebhookSubscriber(
            String id,
            String type,
            String url,
            @Nullable List<String> services,
            String status,
            String createdAt,
            String secret) {}

    record CountsBody(
            long emailConfirmed, long emailPending, long webhooks, long allServices, Map<String, Long> services) {}

    record PageBody(
            List<SubscriberBody> data,

            @JsonInclude(JsonInclude.Include.ALWAYS) @Nullable
            String nextCursor,

            CountsBody counts) {}

    static SubscriberBody subscriber(Subscriber s) {
        return new SubscriberBody(
                s.id(),
                s.kind().wire(),
                s.email().orElse(null),
                s.url().orElse(null),
                s.allServices() ? null : List.copyOf(s.services()),
                status(s),
                Times.format(s.createdAt()),
                s.confirmedAt().map(Times::format).orElse(null));
    }

    static String status(Subscriber s) {
        return s.confirmed() ? "confirmed" : "pending";
    }

    static CountsBody counts(SubscriberDirectory.Counts c) {
        return new CountsBody(c.emailConfirmed(), c.emailPending(), c.webhooks(), c.allServices(), c.services());
    }
}
