package dev.pulseledger.store;

import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The thread of a worker that polls the database for due rows (webhook deliveries, status mails): runs a
 * round, waits one poll interval unless the round came back full, keeps polling through failures (warned once
 * per run of them, by the exception's class only: a message may hold an address), and stops when closed.
 */
public final class PollingLoop {
    private static final Logger LOG = LoggerFactory.getLogger(PollingLoop.class);

    /** One poll; returns true when it was full, so that the next one runs at once. */
    @FunctionalInterface
    public interface Round {
        boolean run();
    }

    private final String what;
    private final Duration pollInterval;
    private final Round round;
    private final Thread thread;
    private final CountDownLatch stopping = new CountDownLatch(1);
    private volatile boolean running = true;

    /** @param what the worker, as the log names it ("webhook worker") */
    public PollingLoop(String what, Duration pollInterval, Round round) {
        this.what = what;
        this.pollInterval = pollInterval;
        this.round = round;
        this.thread =
                Thread.ofPlatform().name(what.replace(' ', '-')).daemon(true).unstarted(this::run);
    }

    public void start() {
        thread.start();
    }

    /** False once {@link #stop} was called: a round's inner loops end early then. */
    public boolean running() {
        return running;
    }

    /** Stops polling, and waits up to {@code wait} for the round under way to end. */
    public void stop(Duration wait) {
        running = false;
        stopping.countDown();
        Workers.awaitEnd(thread, wait);
    }

    private void run() {
        boolean failing = false;
        while (running) {
            boolean full = false;
            try {
                full = round.run();
                failing = false;
            } catch (RuntimeException e) {
                if (!failing) {
                    LOG.warn("The {} failed; retrying: {}", what, e.getClass().getSimpleName());
                }
                failing = true;
            }
            if (!full && !pause()) {
                return;
            }
        }
    }

    /** Waits one poll interval; false once the loop is stopping. */
    private boolean pause() {
        try {
            return !stopping.await(pollInterval.toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            return false;
        }
    }
}
