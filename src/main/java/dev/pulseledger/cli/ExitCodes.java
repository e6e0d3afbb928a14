package dev.pulseledger.cli;

/** The operator commands' exit codes, so scripts can tell a refusal from an outage. */
public final class ExitCodes {
    /** The service did what was asked. */
    public static final int OK = 0;

    /** A bug in the CLI itself (picocli's code for an unexpected exception). */
    public static final int SOFTWARE = 1;

    /** Bad command line: unknown option, missing argument, no admin key, malformed URL. */
    public static final int USAGE = 2;

    /** The service refused the request (HTTP 4xx): unknown id, bad key, invalid value. */
    public static final int REFUSED = 3;

    /** The service failed (HTTP 5xx), could not be reached, or answered something unreadable. */
    public static final int UNAVAILABLE = 4;

    private ExitCodes() {}
}
