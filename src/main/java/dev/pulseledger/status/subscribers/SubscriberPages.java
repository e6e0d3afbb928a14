package dev.pulseledger.status.subscribers;

import dev.pulseledger.i18n.Messages;
import dev.pulseledger.status.services.Service;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.owasp.encoder.Encode;

/**
 * The HTML of the subscribe form and of the pages behind subscribers' links (confirm, manage,
 * unsubscribe), in the status page's look and language. Operator-written names, translated words and
 * every value from a request go through the OWASP encoder; tokens only ever appear in hidden fields
 * and form actions.
 */
final class SubscriberPages {
    static final String SUBSCRIBE_PATH = "/status/subscriptions";

    private final Messages words;
    private final String title;

    SubscriberPages(Messages words, String title) {
        this.words = words;
        this.title = title;
    }

    /** The status page's form: an address, and all services or a chosen few. */
    String form(List<Service> services, Optional<String> error) {
        StringBuilder html = new StringBuilder(1024 + services.size() * 256);
        html.append("<section class=\"group subscribe\" aria-labelledby=\"subscribe-heading\">\n")
                .append("<h2 id=\"subscribe-heading\">")
                .append(word("sub.form.heading"))
                .append("</h2>\n<form method=\"post\" action=\"")
                .append(SUBSCRIBE_PATH)
                .append("\">\n<label for=\"subscribe-email\">")
                .append(word("sub.form.email"))
                .append("</label>\n")
                .append("<input id=\"subscribe-email\" name=\"email\" type=\"email\" required maxlength=\"254\"")
                .append(" autocomplete=\"email\"")
                .append(error.isPresent() ? " aria-invalid=\"true\" aria-describedby=\"subscribe-error\"" : "")
                .append(">\n");
        error.ifPresent(e -> html.append("<p class=\"error\" id=\"subscribe-error\">")
                .append(Encode.forHtml(e))
                .append("</p>\n"));
        serviceChoice(html, services, true, Set.of());
        html.append("<p class=\"hint\">")
                .append(word("sub.form.hint"))
                .append("</p>\n<div class=\"actions\"><button type=\"submit\">")
                .append(word("sub.form.submit"))
                .append("</button></div>\n</form>\n</section>\n");
        return html.toString();
    }

    private void serviceChoice(StringBuilder html, List<Service> services, boolean all, Set<String> chosen) {
        if (services.isEmpty()) {
            return;
        }
        html.append("<fieldset>\n<legend>")
                .append(word("sub.services"))
                .append("</legend>\n<p class=\"hint\">")
                .append(word("sub.services.hint"))
                .append("</p>\n");
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

    String accepted() {
        return page("sub.accepted.heading", paragraph("sub.accepted.text") + back());
    }

    /** The form again, with why it was refused: {@code why} is a problem's detail or a translated word. */
    String refused(String headingKey, String why, List<Service> services) {
        return page(headingKey, "<p>" + Encode.forHtml(why) + "</p>\n" + form(services, Optional.of(why)));
    }

    String invalidLink() {
        return page(
                "sub.invalid.heading",
                paragraph("sub.invalid.text") + "<p><a href=\"/status\">" + word("sub.invalid.again") + "</a></p>\n");
    }

    String confirmQuestion(String token) {
        return page(
                "sub.confirm.heading", paragraph("sub.confirm.text") + button("/confirm", token, "sub.confirm.submit"));
    }

    /** The manage page; {@code note} is a translated word or a problem's detail, shown as text. */
    String manage(
            String headingKey, Optional<String> note, String token, Subscriber subscriber, List<Service> services) {
        StringBuilder html = new StringBuilder();
        note.ifPresent(n ->
                html.append("<p role=\"status\">").append(Encode.forHtml(n)).append("</p>\n"));
        html.append("<p>")
                // The words are escaped first; only then does the address, escaped too, take the placeholder's place.
                .append(Encode.forHtml(words.text("sub.manage.to", "{0}"))
                        .replace(
                                "{0}",
                                "<strong>" + Encode.forHtml(subscriber.email().orElse("")) + "</strong>"))
                .append("</p>\n<form class=\"subscribe\" method=\"post\" action=\"")
                .append(SUBSCRIBE_PATH)
                .append("/manage\">\n<input type=\"hidden\" name=\"token\" value=\"")
                .append(Encode.forHtmlAttribute(token))
                .append("\">\n");
        serviceChoice(html, services, subscriber.allServices(), subscriber.services());
        html.append("<div class=\"actions\"><button type=\"submit\" name=\"action\" value=\"save\">")
                .append(word("sub.manage.save"))
                .append("</button><button type=\"submit\" name=\"action\" value=\"leave\" class=\"secondary\">")
                .append(word("sub.manage.leave"))
                .append("</button></div>\n</form>\n");
        return page(headingKey, html.toString());
    }

    String unsubscribeQuestion(String token) {
        return page(
                "sub.unsubscribe.heading",
                paragraph("sub.unsubscribe.text") + button("/unsubscribe", token, "sub.unsubscribe.submit"));
    }

    String left() {
        return page("sub.left.heading", paragraph("sub.left.text") + back());
    }

    /** A form that posts the link's token back with one button. */
    private String button(String pathEnd, String token, String labelKey) {
        return "<form class=\"subscribe\" method=\"post\" action=\"" + SUBSCRIBE_PATH + pathEnd + "\">\n"
                + "<input type=\"hidden\" name=\"token\" value=\"" + Encode.forHtmlAttribute(token) + "\">\n"
                + "<div class=\"actions\"><button type=\"submit\">" + word(labelKey) + "</button></div>\n</form>\n";
    }

    private String back() {
        return "<p><a href=\"/status\">" + word("sub.back") + "</a></p>\n";
    }

    private String paragraph(String key) {
        return "<p>" + word(key) + "</p>\n";
    }

    /** A translated word as it is, for the caller to pass back as a note or reason. */
    String text(String key) {
        return words.text(key);
    }

    /** A translated word, escaped for HTML. */
    private String word(String key) {
        return Encode.forHtml(words.text(key));
    }

    private String page(String headingKey, String body) {
        String heading = words.text(headingKey);
        return """
                <!doctype html>
                <html lang="%s">
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
                        words.language().tag(),
                        Encode.forHtml(heading + " · " + title),
                        Encode.forHtml(title),
                        Encode.forHtml(heading),
                        body);
    }
}
