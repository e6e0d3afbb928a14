package dev.pulseledger.cli;

/** Ends an operator command with a one-line message on stderr and an exit code from {@link ExitCodes}. */
final class CliFailure extends RuntimeException {
    private static final long serialVersionUID = 1L;

    private final int exitCode;

    CliFailure(int exitCode, String message) {
        super(message, null, false, false);
        this.exitCode = exitCode;
    }

    int exitCode() {
        return exitCode;
    }
}
