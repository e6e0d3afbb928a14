package dev.pulseledger.status.groups;

import dev.pulseledger.status.services.Service;
import dev.pulseledger.status.services.ServiceStatus;
import java.util.Comparator;
import java.util.List;

/** A group as callers see it: its members in pulse order and the status of the gravest one. */
public record GroupRollup(ServiceGroup group, ServiceStatus status, List<Service> members) {
    public GroupRollup {
        members = List.copyOf(members);
    }

    public List<String> serviceIds() {
        return members.stream().map(Service::id).toList();
    }

    /**
     * Every group in its order with the listed services that belong to it. A group without a listed
     * member reads as operational: nothing in it is known to be wrong.
     */
    public static List<GroupRollup> of(List<ServiceGroup> groups, List<Service> listedInOrder) {
        return groups.stream()
                .sorted(ServiceGroup.ORDER)
                .map(group -> {
                    List<Service> members = listedInOrder.stream()
                            .filter(s -> s.groupId().filter(group.id()::equals).isPresent())
                            .toList();
                    return new GroupRollup(group, worst(members), members);
                })
                .toList();
    }

    /** The gravest status of {@code services}, operational when there are none. */
    public static ServiceStatus worst(List<Service> services) {
        return services.stream()
                .map(Service::status)
                .max(Comparator.comparingInt(ServiceStatus::severity))
                .orElse(ServiceStatus.OPERATIONAL);
    }
}
