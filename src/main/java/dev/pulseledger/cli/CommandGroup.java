package dev.pulseledger.cli;

import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.ScopeType;
import picocli.CommandLine.Spec;

/**
 * A command that only groups operator subcommands: run without one, it is a usage error. Its
 * {@code --help} option and exit-code list are inherited by every subcommand.
 */
@Command(
        scope = ScopeType.INHERIT,
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {
            ExitCodes.OK + ":Success.",
            ExitCodes.SOFTWARE + ":Unexpected error in the CLI.",
            ExitCodes.USAGE + ":Usage error (bad option or argument, no admin key, bad --url).",
            ExitCodes.REFUSED + ":The service refused the request (HTTP 4xx); its detail is on stderr.",
            ExitCodes.UNAVAILABLE + ":The service failed (HTTP 5xx) or could not be reached."
        })
abstract class CommandGroup implements Runnable {
    @Spec
    CommandSpec spec;

    @Option(
            names = {"-h", "--help"},
            usageHelp = true,
            scope = ScopeType.INHERIT,
            description = "Show this help and exit.")
    boolean help;

    @Override
    public void run() {
        throw new ParameterException(
                spec.commandLine(),
                "Choose a subcommand: " + String.join(", ", spec.subcommands().keySet()));
    }
}
