package dev.pulseledger.status.groups;

import dev.pulseledger.http.Times;
import java.util.List;

/** JSON shapes of a group: the operator's, and the rolled-up one of {@code GET /api/pulse}. */
public final class ServiceGroupJson {
    private ServiceGroupJson() {}

    public record OperatorBody(String id, String name, int position, String createdAt, String updatedAt) {}

    public record FeedBody(String id, String name, String status, List<String> services) {}

    public static OperatorBody forOperator(ServiceGroup group) {
        return new OperatorBody(
                group.id(),
                group.name(),
                group.position(),
                Times.format(group.createdAt()),
                Times.format(group.updatedAt()));
    }

    public static FeedBody forFeed(GroupRollup rollup) {
        return new FeedBody(
                rollup.group().id(), rollup.group().name(), rollup.status().wire(), rollup.serviceIds());
    }
}
