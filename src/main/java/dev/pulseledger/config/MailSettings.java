package dev.pulseledger.config;

/**
 * How a node sends status subscribers' mail: the server, the From address, and the status page's
 * public address that the links in each mail start with.
 */
public record MailSettings(SmtpUrl smtp, String from, String baseUrl) {
    public MailSettings {
        baseUrl = baseUrl.endsWith("/") ? baseUrl.substring(0, baseUrl.length() - 1) : baseUrl;
    }
}
