package dev.pulseledger.keys;

import java.util.HexFormat;
import java.util.concurrent.atomic.AtomicIntegerArray;

/**
 * Which key hashes exist: the first 32 bits of each SHA-256, in an open-addressing table of 4-byte
 * slots at most half used (8 MB for a million keys, 8 to 16 bytes a key). Lookups take no lock, so a
 * flood of unknown keys costs a hash and a few array reads; adds are rare (a key was created) and take
 * the monitor. A random key matches a stored prefix with odds of about one in 2^32 per stored key (one
 * in 4,300 at a million keys), and such a match only costs one database lookup.
 */
final class KeyHashSet {
    private static final int INITIAL_CAPACITY = 1024;
    /** Zero marks an empty slot, so a prefix that happens to be zero is stored as this instead. */
    private static final int ZERO_STAND_IN = 1;

    private volatile AtomicIntegerArray slots = new AtomicIntegerArray(INITIAL_CAPACITY);
    private int size;

    boolean contains(String hexHash) {
        int prefix = prefix(hexHash);
        AtomicIntegerArray table = slots;
        int mask = table.length() - 1;
        for (int i = prefix & mask; ; i = (i + 1) & mask) {
            int slot = table.get(i);
            if (slot == prefix) {
                return true;
            }
            if (slot == 0) {
                return false;
            }
        }
    }

    synchronized void add(String hexHash) {
        int prefix = prefix(hexHash);
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
    private static AtomicIntegerArray grown(AtomicIntegerArray table) {
        AtomicIntegerArray bigger = new AtomicIntegerArray(table.length() * 2);
        for (int i = 0; i < table.length(); i++) {
            int slot = table.get(i);
            if (slot != 0) {
                insert(bigger, slot);
            }
        }
        return bigger;
    }

    private static boolean insert(AtomicIntegerArray table, int prefix) {
        int mask = table.length() - 1;
        for (int i = prefix & mask; ; i = (i + 1) & mask) {
            int slot = table.get(i);
            if (slot == prefix) {
                return false;
            }
            if (slot == 0) {
                table.set(i, prefix);
                return true;
            }
        }
    }

    /** The hash's first 32 bits; a SHA-256's bits are uniform, so they also pick the slot as they are. */
    private static int prefix(String hexHash) {
        int prefix = HexFormat.fromHexDigits(hexHash, 0, 8);
        return prefix == 0 ? ZERO_STAND_IN : prefix;
    }
}
