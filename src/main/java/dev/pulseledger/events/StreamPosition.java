package dev.pulseledger.events;

import dev.pulseledger.http.ProblemCode;
import dev.pulseledger.http.ProblemException;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * How far a stream has got: the last outbox event it sent and, for an account's stream, the last
 * ledger line whose balance it sent. Written as each event's {@code id} (a pulse stream's is the
 * event's sequence number, an account stream's {@code <event>-<ledger>}), and read back from
 * {@code Last-Event-ID}, so a client that reconnects misses nothing and sees nothing twice.
 */
final class StreamPosition {
    private static final Pattern EVENTS = Pattern.compile("[0-9]{1,18}");
    private static final Pattern EVENTS_AND_LEDGER = Pattern.compile("([0-9]{1,18})-([0-9]{1,18})");

    private final boolean withLedger;
    private final boolean fresh;
    private long eventSequence;
    private long ledgerSequence;

    private StreamPosition(boolean withLedger, boolean fresh, long eventSequence, long ledgerSequence) {
        this.withLedger = withLedger;
        this.fresh = fresh;
        this.eventSequence = eventSequence;
        this.ledgerSequence = ledgerSequence;
    }

    /** The position a pulse stream resumes from: 0 (nothing to replay) without a Last-Event-ID. */
    static StreamPosition ofEvents(Optional<String> lastEventId) {
        return parse(lastEventId, EVENTS, false);
    }

    /** The position an account stream resumes from: 0-0 without a Last-Event-ID. */
    static StreamPosition ofAccount(Optional<String> lastEventId) {
        return parse(lastEventId, EVENTS_AND_LEDGER, true);
    }

    private static StreamPosition parse(Optional<String> header, Pattern pattern, boolean withLedger) {
        if (header.isEmpty() || header.get().isBlank()) {
            return new StreamPosition(withLedger, true, 0, 0);
        }
        Matcher matcher = pattern.matcher(header.get().trim());
        if (!matcher.matches()) {
            throw new ProblemException(
                    ProblemCode.INVALID_LAST_EVENT_ID,
                    "Header 'Last-Event-ID' must be the id of an event this stream sent.");
        }
        return withLedger
                ? new StreamPosition(true, false, Long.parseLong(matcher.group(1)), Long.parseLong(matcher.group(2)))
                : new StreamPosition(false, false, Long.parseLong(matcher.group()), 0);
    }

    /**
     * A stream opened without {@code Last-Event-ID} starts at the feed's position when it connects,
     * so the ids it hands out resume from there.
     */
    void startAt(long feedPosition) {
        if (fresh) {
            eventSequence = feedPosition;
        }
    }

    long eventSequence() {
        return eventSequence;
    }

    long ledgerSequence() {
        return ledgerSequence;
    }

    /** Moves past the frame and answers true, or answers false for a frame already sent. */
    boolean advance(StreamFrame frame) {
        if (frame.eventSequence() > 0) {
            if (frame.eventSequence() <= eventSequence) {
                return false;
            }
            eventSequence = frame.eventSequence();
        }
        if (frame.ledgerSequence() > 0) {
            if (frame.ledgerSequence() <= ledgerSequence) {
                return false;
            }
            ledgerSequence = frame.ledgerSequence();
        }
        return true;
    }

    /** The id of the frame just sent. */
    String id() {
        return withLedger ? eventSequence + "-" + ledgerSequence : Long.toString(eventSequence);
    }
}
