package dev.pulseledger;

import dev.pulseledger.cli.AccountsCommand;
import dev.pulseledger.cli.IncidentsCommand;
import dev.pulseledger.cli.KeysCommand;
import dev.pulseledger.cli.MaintenancesCommand;
import dev.pulseledger.cli.OperatorsCommand;
import dev.pulseledger.cli.PlansCommand;
import dev.pulseledger.cli.ReservationsCommand;
import dev.pulseledger.cli.ServiceGroupsCommand;
import dev.pulseledger.cli.ServicesCommand;
import dev.pulseledger.cli.StatusSubscribersCommand;
import dev.pulseledger.config.ConfigException;
import dev.pulseledger.store.DatabaseUnavailableException;
import dev.pulseledger.verify.VerifyCommand;
import org.slf4j.bridge.SLF4JBridgeHandler;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/** The {@code pulseledger} command: {@code serve} runs the service, the rest operate it. */
@Command(
        name = "pulseledger",
        mixinStandardHelpOptions = true,
        versionProvider = BuildInfo.class,
        description = "Prepaid token accounts and a service-status feed for API providers.")
public final class Main {
    public static void main(String[] args) {
        SLF4JBridgeHandler.removeHandlersForRootLogger();
        SLF4JBridgeHandler.install();
        System.exit(commandLine().execute(args));
    }

    /** The command tree, with start-up errors shown as one clear line instead of a stack trace. */
    public static CommandLine commandLine() {
        CommandLine commandLine = new CommandLine(new Main())
                .addSubcommand(ServeCommand.commandLine())
                .addSubcommand(new PlansCommand())
                .addSubcommand(new AccountsCommand())
                .addSubcommand(new ReservationsCommand())
                .addSubcommand(new KeysCommand())
                .addSubcommand(new ServicesCommand())
                .addSubcommand(new ServiceGroupsCommand())
                .addSubcommand(new StatusSubscribersCommand())
                .addSubcommand(new IncidentsCommand())
                .addSubcommand(new MaintenancesCommand())
                .addSubcommand(new OperatorsCommand())
                .addSubcommand(new VerifyCommand());
        commandLine.setExecutionExceptionHandler((error, cmd, parsed) -> {
            if (error instanceof ConfigException || error instanceof DatabaseUnavailableException) {
                cmd.getErr().println("pulseledger: " + error.getMessage());
                return 2;
            }
            throw error;
        });
        return commandLine;
    }
}
