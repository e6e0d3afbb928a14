package dev.pulseledger.status.subscribers;

import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * What a notice's mail says, kept with the notice as JSON: the words are fixed when the change
 * commits, so every subscriber's mail says the same however late it is sent.
 */
public record NoticePayload(
        String type,
        String subject,
        String title,
        String status,
        String message,
        List<String> serviceNames,
        @Nullable String startsAt,
        @Nullable String endsAt) {
    public NoticePayload {
        serviceNames = List.copyOf(serviceNames);
    }
}
