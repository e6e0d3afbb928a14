package dev.pulseledger.status.subscribers;

import dev.pulseledger.config.MailSettings;
import dev.pulseledger.i18n.Messages;
import dev.pulseledger.store.Database;
import dev.pulseledger.store.PollingLoop;
import dev.pulseledger.webhooks.Backoff;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import jakarta.mail.MessagingException;
import jakarta.mail.SendFailedException;
import jakarta.mail.Transport;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicLong;
import java.util.random.RandomGenerator;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The mail sender of one node. Each tick fans notices out to their subscribers (a bounded number),
 * then claims a bounded batch of due mails under a lease and sends them over one SMTP connection,
 * marking each sent as soon as the server accepted it. A mail the server did not take is retried
 * with backoff (a subscriber's later mails wait behind it, so notices arrive in order); an address the
 * server refuses for good is given up at once, and any mail still failing after {@link #GIVE_UP_AFTER}.
 *
 * <p>"Exactly once" rests on the claim: no two nodes hold one mail at a time (a lease, SKIP LOCKED on
 * PostgreSQL, SQLite's single writer), and a mail is marked sent in its own commit right after the
 * server's 250. Only a node that dies between that 250 and that commit sends a mail twice (after the
 * lease), and then with the same Message-ID, so the receiving side can drop the repeat.
 */
public final class MailWorker implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(MailWorker.class);

    /** Mails one tick claims and sends at most. */
    static final int MAX_PER_TICK = 20;

    /** Subscribers one fan-out batch covers, and batches one tick takes at most. */
    static final int FANOUT_BATCH = 500;

    private static final int FANOUT_BATCHES_PER_TICK = 4;

    /** A mail still failing this long after it was queued is given up (and counted). */
    static final Duration GIVE_UP_AFTER = Duration.ofDays(7);

    private static final Duration MAX_RETRY_DELAY = Duration.ofHours(1);
    private static final Duration RETENTION = Duration.ofDays(30);
    private static final Duration PRUNE_EVERY = Duration.ofHours(1);
    private static final Duration SWEEP_EVERY = Duration.ofMinutes(1);
    private static final int PRUNE_BATCH = 1000;

    /** How often the worker looks for work, how retries back off, and the SMTP timeout. */
    public record Settings(Duration pollInterval, Duration retryBase, Duration timeout) {}

    private final MailQueue queue;
    private final SubscriberStore subscribers;
    private final SmtpMailer mailer;
    private final MailComposer composer;
    private final Settings settings;
    private final Backoff backoff;
    private final Clock clock;
    private final PollingLoop loop;
    private final Counter sent;
    private final Counter retried;
    private final Counter failed;
    private final AtomicLong backlog = new AtomicLong();
    private Instant nextPruneAt = Instant.MIN;
    private Instant nextSweepAt = Instant.MIN;

    MailWorker(
            MailQueue queue,
            SubscriberStore subscribers,
            SmtpMailer mailer,
            MailComposer composer,
            Settings settings,
            Backoff backoff,
            Clock clock,
            MeterRegistry registry) {
        this.queue = queue;
        this.subscribers = subscribers;
        this.mailer = mailer;
        this.composer = composer;
        this.settings = settings;
        this.backoff = backoff;
        this.clock = clock;
        this.sent = counter(registry, "sent");
        this.retried = counter(registry, "retried");
        this.failed = counter(registry, "failed");
        Gauge.builder("pulseledger.status.mails.backlog", backlog, AtomicLong::get)
                .description("Subscribers' mails waiting to be sent, on every node")
                .register(registry);
        this.loop = new PollingLoop("status mail worker", settings.pollInterval(), () -> {
            int claimed = tick();
            housekeep();
            return claimed >= MAX_PER_TICK;
        });
    }

    private static Counter counter(MeterRegistry registry, String result) {
        return Counter.builder("pulseledger.status.mails")
                .description("Subscribers' mail attempts by result (no address is ever a label)")
                .tag("result", result)
                .register(registry);
    }

    /** Long enough for a whole batch of slow sends to end before another node may take its mails. */
    Duration lease() {
        return settings.timeout().multipliedBy(MAX_PER_TICK + 2L).plusSeconds(5);
    }

    public MailWorker start() {
        loop.start();
        return this;
    }

    /** One round: fan out, then claim and send; returns how many mails were claimed. */
    int tick() {
        for (int batch = 0; batch < FANOUT_BATCHES_PER_TICK; batch++) {
            if (queue.fanOut(clock.instant(), FANOUT_BATCH) < FANOUT_BATCH) {
                break;
            }
        }
        Instant now = clock.instant();
        String claim = UUID.randomUUID().toString();
        List<ClaimedMail> claimed = queue.claim(claim, now, now.plus(lease()), MAX_PER_TICK);
        if (!claimed.isEmpty()) {
            send(claimed, claim);
        }
        return claimed.size();
    }

    private void send(List<ClaimedMail> claimed, String claim) {
        int next = 0;
        try (Transport transport = mailer.connect()) {
            for (; next < claimed.size() && loop.running(); next++) {
                sendOne(transport, claimed.get(next), claim);
            }
        } catch (MessagingException | RuntimeException e) {
            // The server is away or dropped the connection: this mail and the rest of the batch wait.
            String error = mailer.describe(e);
            LOG.warn("Sending subscribers' mail through {} failed; will retry: {}", mailer, error);
            for (; next < claimed.size(); next++) {
                retry(claimed.get(next), claim, error);
            }
        }
    }

    private void sendOne(Transport transport, ClaimedMail mail, String claim) throws MessagingException {
        Instant now = clock.instant();
        Optional<MailLinks> links = queue.links(mail, now);
        if (links.isEmpty()) {
            // A confirmation whose request was confirmed or expired meanwhile: nothing to send.
            queue.finish(mail, claim, MailQueue.Result.FAILED, Optional.empty(), Optional.of("not needed"), now);
            return;
        }
        try {
            SmtpMailer.send(transport, composer.compose(mailer.session(), mail, links.get(), now));
        } catch (SendFailedException e) {
            if (!SmtpMailer.permanent(e)) {
                throw e;
            }
            // The server refused this address for good (5xx): no retry will change its mind.
            failed.increment();
            queue.finish(mail, claim, MailQueue.Result.FAILED, Optional.empty(), Optional.of(mailer.describe(e)), now);
            return;
        }
        queue.finish(mail, claim, MailQueue.Result.SENT, Optional.empty(), Optional.empty(), clock.instant());
        sent.increment();
    }

    private void retry(ClaimedMail mail, String claim, String error) {
        Instant now = clock.instant();
        try {
            if (now.isAfter(mail.createdAt().plus(GIVE_UP_AFTER))) {
                LOG.info("Giving up on {} after {} attempts", mail, mail.attempt());
                failed.increment();
                queue.finish(mail, claim, MailQueue.Result.FAILED, Optional.empty(), Optional.of(error), now);
            } else {
                retried.increment();
                queue.finish(
                        mail,
                        claim,
                        MailQueue.Result.RETRY,
                        Optional.of(now.plus(backoff.after(mail.attempt()))),
                        Optional.of(error),
                        now);
            }
        } catch (RuntimeException e) {
            // The lease runs out and another attempt follows; nothing is lost.
            LOG.warn("Recording {} failed: {}", mail, e.getClass().getSimpleName());
        }
    }

    private void housekeep() {
        Instant now = clock.instant();
        if (!now.isBefore(nextSweepAt)) {
            nextSweepAt = now.plus(SWEEP_EVERY);
            while (loop.running() && subscribers.sweep(now, PRUNE_BATCH) >= PRUNE_BATCH) {
                // each round is one short transaction
            }
            backlog.set(queue.pendingCount());
        }
        if (!now.isBefore(nextPruneAt)) {
            nextPruneAt = now.plus(PRUNE_EVERY);
            while (loop.running() && queue.prune(now.minus(RETENTION), PRUNE_BATCH) >= PRUNE_BATCH) {
                // likewise
            }
        }
    }

    /** A worker for the node's mail settings; it sends once started. */
    public static MailWorker create(
            Database database,
            SubscriberStore subscribers,
            MailSettings mail,
            Optional<String> providerName,
            Messages pageWords,
            Settings settings,
            Clock clock,
            RandomGenerator random,
            MeterRegistry registry) {
        Duration base = settings.retryBase();
        Backoff backoff = new Backoff(base, MAX_RETRY_DELAY.compareTo(base) < 0 ? base : MAX_RETRY_DELAY, random);
        return new MailWorker(
                new MailQueue(database),
                subscribers,
                new SmtpMailer(mail.smtp(), settings.timeout()),
                new MailComposer(mail, providerName, pageWords),
                settings,
                backoff,
                clock,
                registry);
    }

    /** Stops claiming; a batch in flight ends its current mail, and the rest wait for their lease. */
    @Override
    public void close() {
        loop.stop(settings.timeout().multipliedBy(2).plusSeconds(1));
    }
}
