package dev.pulseledger.status.subscribers;

import dev.pulseledger.status.services.Service;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.owasp.encoder.Encode;

/**
 * The HTML of the subscribe form and of the pages behind subscribers' links (confirm, manage,
 * unsubscribe), in the status page's look. Operator-written names and every value from a request go
 * through the OWASP encoder; tokens only ever appear in hidden fields and form actions.
 */
final class SubscriberPages {
    static final String SUBSCRIBE_PATH = "/status/subscriptions";

    private SubscriberPages() {}

    /** The status page's form: an address, and all services or a chosen few. */
    static String form(List<Service> services, Optional<String> error) {
        StringBuilder html = new StringBuilder(1024 + services.size() * 256);
        html.append("<section class=\"group subscribe\" aria-labelledby=\"subscribe-heading\">\n")
                .append("<h2 id=\"subscribe-heading\">Get notices by email</h2>\n")
                .append("<form method=\"post\" action=\"")
                .append(SUBSCRIBE_PATH)
                .append("\">\n<label for=\"subscribe-email\">Email address</label>\n")
                .append("<input id=\"subscribe-email\" name=\"email\" type=\"email\" required maxlength=\"254\"")
                .append(" autocomplete=\"email\"")
                .append(error.isPresent() ? " aria-invalid=\"true\" aria-describedby=\"subscribe-error\"" : "")
                .append(">\n");
        error.ifPresent(e -> html.append("<p class=\"error\" id=\"subscribe-error\">")
                .append(Encode.forHtml(e))
                .append("</p>\n"));
        serviceChoice(html, services, true, Set.of());
        html.append("<p class=\"hint\">We send a link to confirm first; nothing else comes until you follow it.</p>\n")
                .append("<div class=\"actions\"><button type=\"submit\">Subscribe</button></div>\n")
                .append("</form>\n</section>\n");
        return html.toString();
    }

    private static void serviceChoice(StringBuilder html, List<Service> services, boolean all, Set<String> chosen) {
        if (services.isEmpty()) {
            return;
        }
        html.append("<fieldset>\n<legend>Services</legend>\n")
                .append("<p class=\"hint\">Tick none for every service, new ones included.</p>\n");
        for (Service service : services) {
            String id = "service-" + service.id();
            html.append("<label class=\"choice\" for=\"")
                    .append(Encode.forHtmlAttribute(id))
                    .append("\"><input type=\"checkbox\" name=\"services\" id=\"")
                    .append(Encode.forHtmlAttribute(id))
                    .append("\" value=\"")
                    .append(Encode.forHtmlAttribute(service.id()))
                    .append('"')
                    .append(!all && chosen.contains(service.id()) ? " checked" : "")
                    .append("> ")
                    .append(Encode.forHtml(service.name()))
                    .append("</label>\n");
        }
        html.append("</fieldset>\n");
    }

    static String accepted(String title) {
        return page(title, "Check your inbox", """
                <p>If the address can receive mail, a message with a confirmation link is on its way. \
                Follow it within 24 hours to start receiving notices; nothing else is sent before.</p>
                <p><a href="/status">Back to the status page</a></p>
                """);
    }

    static String refused(String title, String heading, String why, List<Service> services) {
        return page(title, heading, "<p>" + Encode.forHtml(why) + "</p>\n" + form(services, Optional.of(why)));
    }

    static String invalidLink(String title) {
        return page(title, "This link does not work", """
                <p>The link is not valid: it may have expired (confirmation links last 24 hours), been used \
                already, or been copied only in part. Nothing was changed.</p>
                <p><a href="/status">Go to the status page</a> to subscribe again.</p>
                """);
    }

    static String confirmQuestion(String title, String token) {
        return page(title, "Confirm your subscription", """
                <p>Press the button to start receiving status notices at this address.</p>
                <form class="subscribe" method="post" action="%s/confirm">
                <input type="hidden" name="token" value="%s">
                <div class="actions"><button type="submit">Confirm subscription</button></div>
                </form>
                """.formatted(SUBSCRIBE_PATH, Encode.forHtmlAttribute(token)));
    }

    static String manage(
            String title,
            String heading,
            Optional<String> note,
            String token,
            Subscriber subscriber,
            List<Service> services) {
        StringBuilder html = new StringBuilder();
        note.ifPresent(n ->
                html.append("<p role=\"status\">").append(Encode.forHtml(n)).append("</p>\n"));
        html.append("<p>Notices go to <strong>")
                .append(Encode.forHtml(subscriber.email().orElse("")))
                .append("</strong>.</p>\n<form class=\"subscribe\" method=\"post\" action=\"")
                .append(SUBSCRIBE_PATH)
                .append("/manage\">\n<input type=\"hidden\" name=\"token\" value=\"")
                .append(Encode.forHtmlAttribute(token))
                .append("\">\n");
        serviceChoice(html, services, subscriber.allServices(), subscriber.services());
        html.append(
                        "<div class=\"actions\"><button type=\"submit\" name=\"action\" value=\"save\">Save services</button>")
                .append("<button type=\"submit\" name=\"action\" value=\"leave\" class=\"secondary\">")
                .append("Leave and delete my address</button></div>\n</form>\n");
        return page(title, heading, html.toString());
    }

    static String unsubscribeQuestion(String title, String token) {
        return page(title, "Unsubscribe", """
                <p>Press the button to stop all status notices and delete this address.</p>
                <form class="subscribe" method="post" action="%s/unsubscribe">
                <input type="hidden" name="token" value="%s">
                <div class="actions"><button type="submit">Unsubscribe</button></div>
                </form>
                """.formatted(SUBSCRIBE_PATH, Encode.forHtmlAttribute(token)));
    }

    static String left(String title) {
        return page(title, "You have left", """
                <p>Your address is deleted and no more notices will come. You can subscribe again at any \
                time on the status page.</p>
                <p><a href="/status">Back to the status page</a></p>
                """);
    }

    static String page(String title, String heading, String body) {
        return """
                <!doctype html>
                <html lang="en">
                <head>
                <meta charset="utf-8">
                <meta name="viewport" content="width=device-width, initial-scale=1">
                <meta name="color-scheme" content="light dark">
                <meta name="robots" content="noindex">
                <title>%s</title>
                <link rel="stylesheet" href="/status/status.css">
                </head>
                <body>
                <header class="masthead"><div class="wrap"><p class="provider"><a href="/status">%s</a></p></div></header>
                <main class="wrap">
                <h1>%s</h1>
                %s</main>
                </body>
                </html>
                """.formatted(
                        Encode.forHtml(heading + " · " + title), Encode.forHtml(title), Encode.forHtml(heading), body);
    }
}
