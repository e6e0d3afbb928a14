package dev.pulseledger.status.page;

import org.owasp.encoder.Encode;

/**
 * The frame every status page shares: head, masthead with the provider's name and the page links,
 * and a footer with the plain reload link that stands in for the refresh script without JavaScript.
 */
final class PageLayout {
    private PageLayout() {}

    /** Opens the document up to and including {@code <main>}; {@code page} names the current page. */
    static void open(StringBuilder html, Branding branding, String heading, String page) {
        String title = branding.title();
        html.append("""
                <!doctype html>
                <html lang="en">
                <head>
                <meta charset="utf-8">
                <meta name="viewport" content="width=device-width, initial-scale=1">
                <meta name="color-scheme" content="light dark">
                <title>%s</title>
                <link rel="stylesheet" href="/status/status.css">
                <link rel="alternate" type="application/atom+xml" title="%s incidents" href="/status/feed.atom">
                <script src="/status/status.js" defer></script>
                </head>
                <body>
                <header class="masthead"><div class="wrap">
                """.formatted(Encode.forHtml(heading + " · " + title), Encode.forHtmlAttribute(title)));
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
        html.append("</p>\n<nav aria-label=\"Status pages\"><ul>")
                .append(link("/status", "Current status", page.equals("status")))
                .append(link("/status/history", "Incident history", page.equals("history")))
                .append("</ul></nav>\n</div></header>\n<main class=\"wrap\">\n<h1>")
                .append(Encode.forHtml(heading))
                .append("</h1>\n");
    }

    private static String link(String href, String text, boolean current) {
        return "<li><a href=\"" + href + "\"" + (current ? " aria-current=\"page\"" : "") + ">" + text + "</a></li>";
    }

    static void close(StringBuilder html, String reloadPath) {
        html.append("""
                </main>
                <footer class="wrap footer">
                <p><span id="refresh-note">Times are in UTC.</span> <a href="%s">Reload this page</a> for the latest.</p>
                <p>Also as an <a href="/status/feed.atom">Atom feed</a> and as
                <a href="/status/api/v2/summary.json">Statuspage-compatible JSON</a>.</p>
                </footer>
                </body>
                </html>
                """.formatted(Encode.forHtmlAttribute(reloadPath)));
    }
}
