package dev.pulseledger.http;

import io.helidon.webserver.http.ServerResponse;

/** The strict browser-facing headers of the HTML pages and their assets: CSP, framing, referrer. */
public final class PageHeaders {
    private PageHeaders() {}

    /** Applies {@code contentSecurityPolicy} and the headers every page shares. */
    public static void apply(ServerResponse res, String contentSecurityPolicy) {
        res.header("Content-Security-Policy", contentSecurityPolicy);
        // For browsers that predate CSP's frame-ancestors.
        res.header("X-Frame-Options", "DENY");
        res.header("Referrer-Policy", "no-referrer");
        res.header("Cross-Origin-Opener-Policy", "same-origin");
        res.header("Cross-Origin-Resource-Policy", "same-origin");
        res.header("Permissions-Policy", "camera=(), microphone=(), geolocation=(), payment=(), usb=()");
    }
}
