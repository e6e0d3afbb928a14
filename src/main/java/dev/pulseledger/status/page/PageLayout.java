package dev.pulseledger.status.page;

import dev.pulseledger.i18n.Messages;
import org.owasp.encoder.Encode;

/**
 * The frame every status page shares: head, masthead with the provider's name and the page links,
 * and a footer with the plain reload link that stands in for the refresh script without JavaScript.
 */
final class PageLayout {
    private PageLayout() {}

    /** Opens the document up to and including {@code <main>}; {@code page} names the current page. */
    static void open(StringBuilder html, Branding branding, String heading, String page, Messages words) {
        String title = branding.title(words);
        html.append("""
                <!doctype html>
                <html lang="%s">
                <head>
                <meta charset="utf-8">
                <meta name="viewport" content="width=device-width, initial-scale=1">
                <meta name="color-scheme" content="light dark">
                <title>%s</title>
                <link rel="stylesheet" href="/status/status.css">
                <link rel="alternate" type="application/atom+xml" title="%s" href="/status/feed.atom">
                <script src="/status/status.js" defer></script>
                </head>
                <body>
                <header class="masthead"><div class="wrap">
                """.formatted(
                        words.language().tag(),
                        Encode.forHtml(heading + " · " + title),
                        Encode.forHtmlAttribute(words.text("feed.title", title))));
        html.append("<p class=\"provider\">");
        if (branding.providerUrl().isPresent()) {
            html.append("<a href=\"")
                    .append(Encode.forHtmlAttribute(branding.providerUrl().get()))
                    .append("\">")
                    .append(Encode.forHtml(title))
                    .append("</a>");
        } else {
            html.append(Encode.forHtml(title));
        }
        html.append("</p>\n<nav aria-label=\"")
                .append(Encode.forHtmlAttribute(words.text("nav.label")))
                .append("\"><ul>")
                .append(link("/status", words.text("nav.current"), page.equals("status")))
                .append(link("/status/history", words.text("nav.history"), page.equals("history")))
                .append("</ul></nav>\n</div></header>\n<main class=\"wrap\">\n<h1>")
                .append(Encode.forHtml(heading))
                .append("</h1>\n");
    }

    private static String link(String href, String text, boolean current) {
        return "<li><a href=\"" + href + "\"" + (current ? " aria-current=\"page\"" : "") + ">" + Encode.forHtml(text)
                + "</a></li>";
    }

    static void close(StringBuilder html, String reloadPath, Messages words) {
        html.append("""
                </main>
                <footer class="wrap footer">
                <p><span id="refresh-note" data-live="%s">%s</span> %s</p>
                <p>%s</p>
                </footer>
                </body>
                </html>
                """.formatted(
                Encode.forHtmlAttribute(words.text("footer.live")),
                Encode.forHtml(words.text("footer.times")),
                words.text(
                        "footer.reload",
                        "<a href=\"" + Encode.forHtmlAttribute(reloadPath) + "\">"
                                + Encode.forHtml(words.text("footer.reload.link")) + "</a>"),
                words.text(
                        "footer.feeds",
                        "<a href=\"/status/feed.atom\">" + Encode.forHtml(words.text("footer.feeds.atom")) + "</a>",
                        "<a href=\"/status/api/v2/summary.json\">" + Encode.forHtml(words.text("footer.feeds.json"))
                                + "</a>")));
    }
}
