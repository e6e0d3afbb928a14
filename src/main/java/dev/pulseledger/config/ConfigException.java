package dev.pulseledger.config;

/** A setting is missing or malformed; the message names the setting and what it accepts. */
public final class ConfigException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public ConfigException(String message) {
        super(message);
    }
}
