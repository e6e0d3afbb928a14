package dev.pulseledger.app;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.encoder.PatternLayoutEncoder;
import ch.qos.logback.classic.spi.Configurator;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.ConsoleAppender;
import ch.qos.logback.core.spi.ContextAwareBase;
import java.util.Map;
import org.slf4j.Logger;

/**
 * The node's logging, set up in code (found by logback through {@code META-INF/services}): one line per event
 * on standard output, at {@code PULSELEDGER_LOG_LEVEL} (INFO unless set). Reading the same from a logback.xml
 * loaded logback's XML configurator and the JDK's XML parser, about 400 classes (2 MB of metaspace) kept for the
 * life of the process (docs/PERFORMANCE.md, session 21). A {@code -Dlogback.configurationFile} or a
 * logback-test.xml on the class path still takes over.
 */
public final class LogSetup extends ContextAwareBase implements Configurator {
    static final String PATTERN = "%d{yyyy-MM-dd'T'HH:mm:ss.SSSXXX,UTC} %-5level %logger{20} - %msg%n";

    /**
     * Library loggers turned down: HikariCP and Flyway chat at INFO; HikariCP's "connection marked as broken"
     * and Helidon's "internal error" for unparseable request lines print a stack trace for expected faults
     * (docs/SECURITY.md), which the server reports in one line or not at all.
     */
    static final Map<String, Level> LIBRARY_LEVELS = Map.of(
            "com.zaxxer.hikari", Level.WARN,
            "com.zaxxer.hikari.pool.ProxyConnection", Level.ERROR,
            "org.flywaydb", Level.WARN,
            "io.helidon", Level.WARN,
            "io.helidon.webserver.http1.Http1Connection", Level.ERROR);

    @Override
    public ExecutionStatus configure(LoggerContext context) {
        if (System.getProperty("logback.configurationFile") != null
                || LogSetup.class.getClassLoader().getResource("logback-test.xml") != null) {
            return ExecutionStatus.INVOKE_NEXT_IF_ANY;
        }
        PatternLayoutEncoder encoder = new PatternLayoutEncoder();
        encoder.setContext(context);
        encoder.setPattern(PATTERN);
        encoder.start();
        ConsoleAppender<ILoggingEvent> console = new ConsoleAppender<>();
        console.setContext(context);
        console.setName("CONSOLE");
        console.setEncoder(encoder);
        console.start();
        ch.qos.logback.classic.Logger root = context.getLogger(Logger.ROOT_LOGGER_NAME);
        String level = System.getenv("PULSELEDGER_LOG_LEVEL");
        root.setLevel(Level.toLevel(level, Level.INFO));
        root.addAppender(console);
        LIBRARY_LEVELS.forEach((name, libraryLevel) -> context.getLogger(name).setLevel(libraryLevel));
        return ExecutionStatus.DO_NOT_INVOKE_NEXT_IF_ANY;
    }
}
