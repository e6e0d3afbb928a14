package dev.pulseledger.events;

/**
 * An event as the outbox holds it: its commit-ordered sequence number, its id, its type and the
 * exact envelope JSON that subscribers receive (and that webhook signatures cover).
 */
public record StoredEvent(long sequence, String id, EventType type, String payload) {}
