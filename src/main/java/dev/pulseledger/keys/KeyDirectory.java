package dev.pulseledger.keys;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import dev.pulseledger.store.DatabaseUnavailableException;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;

/**
 * Who each key hash belongs to, cached until the access change log says otherwise, and which key
 * hashes exist at all. A hash that exists nowhere is refused from memory after the feed's next
 * scheduled read, so a flood of made-up keys never reaches the database and never takes a cache slot
 * from a real key.
 */
public final class KeyDirectory implements AccessFeed.Listener {
    /** Changes arrive through the feed; the expiry only bounds how long an idle key holds memory. */
    public static final Duration CACHE_TTL = Duration.ofMinutes(10);

    /**
     * How long a request with a key unknown here may wait for the feed's next read to see keys another
     * node just created (a poll interval when the database answers).
     */
    public static final Duration MAX_CATCH_UP_WAIT = Duration.ofSeconds(2);

    private static final long MAX_CACHED_KEYS = 100_000;

    private final KeyStore keys;
    private final AccessFeed feed;
    private final KeyHashSet hashes = new KeyHashSet();
    private final Cache<String, Optional<KeyGrant>> grants = Caffeine.newBuilder()
            .expireAfterWrite(CACHE_TTL)
            .maximumSize(MAX_CACHED_KEYS)
            .build();
    /** Moves before every invalidation, so a lookup racing with a change never caches what it read before. */
    private final AtomicLong generation = new AtomicLong();

    private final LongAdder lookups = new LongAdder();

    private KeyDirectory(KeyStore keys, AccessFeed feed) {
        this.keys = keys;
        this.feed = feed;
    }

    /** Loads every key hash, then follows the feed; the feed must not have started reading yet. */
    public static KeyDirectory load(KeyStore keys, AccessFeed feed) {
        KeyDirectory directory = new KeyDirectory(keys, feed);
        keys.forEachKeyHash(directory.hashes::add);
        feed.subscribe(directory);
        return directory;
    }

    /**
     * The grant of the key with this hash, as of now; empty when no such key exists. A hash unknown
     * here waits for the feed's next scheduled read if {@code waitForNewKeys}, in case another node
     * just made it; it never asks for an early read, so unknown keys cost the database nothing.
     */
    public Optional<KeyGrant> grant(String hash, boolean waitForNewKeys) {
        if (feed.trusted()) {
            Optional<KeyGrant> cached = grants.getIfPresent(hash);
            if (cached != null) {
                return cached;
            }
        }
        if (!hashes.contains(hash)) {
            if (!waitForNewKeys) {
                return Optional.empty();
            }
            if (!feed.nextRead(MAX_CATCH_UP_WAIT)) {
                throw new DatabaseUnavailableException("The list of keys could not be read in time", null);
            }
            if (!hashes.contains(hash)) {
                return Optional.empty();
            }
        }
        long seen = generation.get();
        lookups.increment();
        Optional<KeyGrant> grant = keys.findGrant(hash);
        grants.put(hash, grant);
        if (generation.get() != seen) {
            grants.invalidate(hash);
        }
        return grant;
    }

    /** Database reads of one key's grant so far: keys that exist but were not cached. */
    public long lookups() {
        return lookups.sum();
    }

    /** Waits (briefly) until every change committed so far shows here, after a change made on this node. */
    public void catchUp() {
        feed.catchUp(MAX_CATCH_UP_WAIT);
    }

    @Override
    public void changed(AccessChange change) {
        switch (change.kind()) {
            case KEY -> {
                hashes.add(change.subject());
                generation.incrementAndGet();
                grants.invalidate(change.subject());
            }
            case ACCOUNT -> {
                generation.incrementAndGet();
                grants.asMap()
                        .values()
                        .removeIf(grant -> grant.map(g -> g.accountId().equals(change.subject()))
                                .orElse(false));
            }
            case PLAN, OPERATOR -> {
                // A grant names its account's plan, not the plan's contents; operators hold no caller keys.
            }
        }
    }

    @Override
    public void lost() {
        generation.incrementAndGet();
        grants.invalidateAll();
        keys.forEachKeyHash(hashes::add);
    }
}
