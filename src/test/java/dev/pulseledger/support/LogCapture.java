package dev.pulseledger.support;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.classic.spi.ThrowableProxyUtil;
import ch.qos.logback.core.read.ListAppender;
import java.util.ArrayList;
import java.util.List;
import java.util.logging.Handler;
import java.util.logging.LogRecord;
import java.util.logging.SimpleFormatter;
import org.slf4j.LoggerFactory;

/**
 * Captures every log line the process writes while open: SLF4J/Logback (our code, Hikari, Flyway)
 * and java.util.logging (Helidon), with Pulseledger's own loggers turned up to TRACE.
 */
public final class LogCapture implements AutoCloseable {
    private final Logger root;
    private final Logger ours;
    private final Level oursBefore;
    private final ListAppender<ILoggingEvent> appender = new ListAppender<>();
    private final java.util.logging.Logger julRoot = java.util.logging.Logger.getLogger("");
    private final List<String> julLines = new ArrayList<>();
    private final Handler julHandler = new Handler() {
        private final SimpleFormatter formatter = new SimpleFormatter();

        @Override
        public void publish(LogRecord record) {
            synchronized (julLines) {
                julLines.add(formatter.format(record));
            }
        }

        @Override
        public void flush() {}

        @Override
        public void close() {}
    };

    public LogCapture() {
        LoggerContext context = (LoggerContext) LoggerFactory.getILoggerFactory();
        root = context.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME);
        ours = context.getLogger("dev.pulseledger");
        oursBefore = ours.getLevel();
        ours.setLevel(Level.TRACE);
        appender.setContext(context);
        appender.start();
        root.addAppender(appender);
        julRoot.addHandler(julHandler);
    }

    /** Every captured line, with any stack trace it carried. */
    public List<String> lines() {
        List<String> lines = new ArrayList<>();
        synchronized (appender) {
            for (ILoggingEvent event : appender.list) {
                lines.add(line(event));
            }
        }
        synchronized (julLines) {
            lines.addAll(julLines);
        }
        return lines;
    }

    /** The captured SLF4J lines at WARN or above, each as {@link #lines()} gives it. */
    public List<String> warnings() {
        List<String> warnings = new ArrayList<>();
        synchronized (appender) {
            for (ILoggingEvent event : appender.list) {
                if (event.getLevel().isGreaterOrEqual(Level.WARN)) {
                    warnings.add(line(event));
                }
            }
        }
        return warnings;
    }

    private static String line(ILoggingEvent event) {
        String trace =
                event.getThrowableProxy() == null ? "" : "\n" + ThrowableProxyUtil.asString(event.getThrowableProxy());
        return event.getLoggerName() + " " + event.getFormattedMessage() + " " + event.getMDCPropertyMap() + trace;
    }

    /**
     * How many lines a node with the default configuration prints (INFO and above, a stack trace counted
     * line by line) for what was captured.
     */
    public long printedLineCount() {
        long count = 0;
        synchronized (appender) {
            for (ILoggingEvent event : appender.list) {
                if (event.getLevel().isGreaterOrEqual(Level.INFO)) {
                    count += 1
                            + (event.getThrowableProxy() == null
                                    ? 0
                                    : ThrowableProxyUtil.asString(event.getThrowableProxy())
                                            .lines()
                                            .count());
                }
            }
        }
        synchronized (julLines) {
            count += julLines.stream().mapToLong(line -> line.lines().count()).sum();
        }
        return count;
    }

    @Override
    public void close() {
        julRoot.removeHandler(julHandler);
        root.detachAppender(appender);
        appender.stop();
        ours.setLevel(oursBefore);
    }
}
