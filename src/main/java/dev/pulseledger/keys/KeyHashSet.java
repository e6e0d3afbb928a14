package dev.pulseledger.keys;

import java.util.HexFormat;
import java.util.concurrent.atomic.AtomicLongArray;

/**
 * Which key hashes exist, in 8 bytes per key: the first 64 bits of each SHA-256, in an open-addressing
 * table. Lookups take no lock, so a flood of unknown keys costs a hash and a few array reads; adds
 * are rare (a key was created) and take the monitor. A random key matches a stored prefix with odds
 * of about one in 2^64 per stored key, and such a match only costs one database lookup.
 */
final class KeyHashSet {
    private static final int INITIAL_CAPACITY = 1024;
    /** Zero marks an empty slot, so a prefix that happens to be zero is stored as this instead. */
    private static final long ZERO_STAND_IN = 1;

    private volatile AtomicLongArray slots = new AtomicLongArray(INITIAL_CAPACITY);
    private int size;

    boolean contains(String hexHash) {
        long prefix = prefix(hexHash);
        AtomicLongArray table = slots;
        int mask = table.length() - 1;
        for (int i = spread(prefix) & mask; ; i = (i + 1) & mask) {
            long slot = table.get(i);
            if (slot == prefix) {
                return true;
            }
            if (slot == 0) {
                return false;
            }
        }
    }

    synchronized void add(String hexHash) {
        long prefix = prefix(hexHash);
        if ((size + 1) * 2L > slots.length()) {
            slots = grown(slots);
        }
        if (insert(slots, prefix)) {
            size++;
        }
    }

    synchronized int size() {
        return size;
    }

    /** Kept at most half full, so a probe for an absent prefix ends after a slot or two. */
    private static AtomicLongArray grown(AtomicLongArray table) {
        AtomicLongArray bigger = new AtomicLongArray(table.length() * 2);
        for (int i = 0; i < table.length(); i++) {
            long slot = table.get(i);
            if (slot != 0) {
                insert(bigger, slot);
            }
        }
        return bigger;
    }

    private static boolean insert(AtomicLongArray table, long prefix) {
        int mask = table.length() - 1;
        for (int i = spread(prefix) & mask; ; i = (i + 1) & mask) {
            long slot = table.get(i);
            if (slot == prefix) {
                return false;
            }
            if (slot == 0) {
                table.set(i, prefix);
                return true;
            }
        }
    }

    private static long prefix(String hexHash) {
        long prefix = HexFormat.fromHexDigitsToLong(hexHash, 0, 16);
        return prefix == 0 ? ZERO_STAND_IN : prefix;
    }

    private static int spread(long prefix) {
        return (int) (prefix ^ (prefix >>> 32));
    }
}
