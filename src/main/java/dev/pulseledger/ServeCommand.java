package dev.pulseledger;

import dev.pulseledger.config.Config;
import dev.pulseledger.config.Setting;
import dev.pulseledger.config.Settings;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;

/**
 * {@code pulseledger serve}: reads the settings (flags over environment) and runs a node. Its options
 * are the declared {@link Settings}, one each.
 */
@Command(
        name = "serve",
        mixinStandardHelpOptions = true,
        versionProvider = BuildInfo.class,
        description = "Run the Pulseledger service. Flags override PULSELEDGER_* environment variables.")
public final class ServeCommand implements Callable<Integer> {
    private final Map<String, String> environment;
    private final CommandSpec spec;

    private ServeCommand(Map<String, String> environment) {
        this.environment = environment;
        this.spec = CommandSpec.forAnnotatedObject(this);
        Settings.all().forEach(setting -> spec.addOption(option(setting)));
    }

    /** The {@code serve} command, reading the process environment. */
    public static CommandLine commandLine() {
        return commandLine(System.getenv());
    }

    static CommandLine commandLine(Map<String, String> environment) {
        return new CommandLine(new ServeCommand(environment).spec);
    }

    /** Parses {@code serve} flags (falling back to the environment) into a checked config. */
    public static Config parseConfig(String... args) {
        return parseConfig(System.getenv(), args);
    }

    static Config parseConfig(Map<String, String> environment, String... args) {
        CommandLine commandLine = commandLine(environment);
        commandLine.parseArgs(args);
        return ((ServeCommand) commandLine.getCommand()).config();
    }

    private static OptionSpec option(Setting<?> setting) {
        OptionSpec.Builder option = OptionSpec.builder(setting.flag())
                .type(String.class)
                .paramLabel("<" + setting.name() + ">")
                .description(setting.help() + " " + setting.env() + "; "
                        + setting.kind().accepts()
                        + (setting.defaultValue().isEmpty() ? "." : "; default " + setting.defaultValue() + "."));
        if (setting.kind().switchLike()) {
            option.arity("0..1").fallbackValue("true");
        }
        return option.build();
    }

    private Config config() {
        return Config.read(this::given);
    }

    private Optional<String> given(Setting<?> setting) {
        OptionSpec option = spec.findOption(setting.flag());
        if (spec.commandLine().getParseResult().hasMatchedOption(option)) {
            return Optional.of(option.getValue());
        }
        return Optional.ofNullable(environment.get(setting.env()));
    }

    @Override
    public Integer call() throws InterruptedException {
        Config config = config();
        Application application = Application.start(config, System.out);
        CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            application.close();
            stopped.countDown();
        }));
        stopped.await();
        return 0;
    }
}
