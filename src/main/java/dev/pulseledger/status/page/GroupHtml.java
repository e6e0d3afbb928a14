package dev.pulseledger.status.page;

import dev.pulseledger.i18n.Messages;
import dev.pulseledger.status.groups.GroupRollup;
import dev.pulseledger.status.history.UptimeReport;
import dev.pulseledger.status.services.ServiceStatus;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.owasp.encoder.Encode;

/**
 * Renders service groups as collapsible sections ({@code <details>}) headed by the group's rolled-up
 * status; a group with anything wrong starts open, so the visitor sees which member it is.
 */
final class GroupHtml {
    private GroupHtml() {}

    static void groups(StringBuilder html, List<GroupRollup> groups, Map<String, UptimeReport> uptime, Messages words) {
        if (groups.isEmpty()) {
            return;
        }
        html.append("<section class=\"group\" aria-labelledby=\"groups-heading\">\n")
                .append("<h2 id=\"groups-heading\">")
                .append(Encode.forHtml(words.text("section.groups")))
                .append("</h2>\n");
        for (GroupRollup group : groups) {
            StatusWords status = StatusWords.of(group.status(), words);
            html.append("<details class=\"service-group tone-")
                    .append(status.tone())
                    .append("\" data-group=\"")
                    .append(Encode.forHtmlAttribute(group.group().id()))
                    .append("\" data-status=\"")
                    .append(group.status().wire())
                    .append('"')
                    .append(group.status() == ServiceStatus.OPERATIONAL ? "" : " open")
                    .append(">\n<summary><span class=\"group-name\">")
                    .append(Encode.forHtml(group.group().name()))
                    .append("</span> <span class=\"badge\"><span class=\"visually-hidden\">")
                    .append(Encode.forHtml(words.text("status.prefix")))
                    .append(" </span>")
                    .append(Encode.forHtml(status.label()))
                    .append("</span></summary>\n<ul class=\"services\">\n");
            group.members()
                    .forEach(service ->
                            StatusPageView.item(html, service, Optional.ofNullable(uptime.get(service.id())), words));
            html.append("</ul>\n</details>\n");
        }
        html.append("</section>\n");
    }
}
