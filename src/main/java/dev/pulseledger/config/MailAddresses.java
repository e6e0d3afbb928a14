package dev.pulseledger.config;

import java.util.Locale;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * The email addresses Pulseledger sends to or from: a plain {@code local@domain} of at most 254
 * characters (RFC 5321's path limit), printable ASCII, no display name, no comment, no quoting,
 * and nothing a mail header could be split or extended with (CR, LF, comma, angle brackets).
 */
public final class MailAddresses {
    /** The longest address an SMTP path can carry (RFC 5321 §4.5.3.1.3). */
    public static final int MAX_LENGTH = 254;

    private static final int MAX_LOCAL_LENGTH = 64;
    private static final Pattern LOCAL =
            Pattern.compile("[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+(\\.[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+)*");
    private static final Pattern DOMAIN = Pattern.compile(
            "([A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?\\.)+[A-Za-z]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?");

    private MailAddresses() {}

    /** Whether {@code address} is one we would put in a To or From header as it is. */
    public static boolean isSendable(String address) {
        return normalized(address).isPresent();
    }

    /**
     * The address with its domain in lower case (the local part is the mailbox owner's to define, but
     * every provider we know treats it case-insensitively, so it is lower-cased too: one subscriber per
     * mailbox), or empty when it is not acceptable.
     */
    public static Optional<String> normalized(String address) {
        if (address.isEmpty() || address.length() > MAX_LENGTH) {
            return Optional.empty();
        }
        int at = address.lastIndexOf('@');
        if (at < 1 || at != address.indexOf('@') || at > MAX_LOCAL_LENGTH) {
            return Optional.empty();
        }
        String local = address.substring(0, at);
        String domain = address.substring(at + 1);
        if (!LOCAL.matcher(local).matches() || !DOMAIN.matcher(domain).matches() || domain.length() > 253) {
            return Optional.empty();
        }
        return Optional.of(address.toLowerCase(Locale.ROOT));
    }
}
