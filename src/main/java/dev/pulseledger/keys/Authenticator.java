package dev.pulseledger.keys;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Optional;

/**
 * Decides who a presented key belongs to. Grants are cached for {@link #CACHE_TTL} so that a
 * revocation on any node takes effect everywhere within the contract's 5 seconds.
 */
public final class Authenticator {
    public static final Duration CACHE_TTL = Duration.ofSeconds(2);
    public static final int MAX_KEY_LENGTH = 200;
    private static final long MAX_CACHED_KEYS = 100_000;

    private final KeyStore keys;
    private final Clock clock;
    private final List<String> adminKeyHashes;
    private final Cache<String, Optional<KeyGrant>> grants;

    public Authenticator(KeyStore keys, Clock clock, List<String> adminKeyHashes) {
        this.keys = keys;
        this.clock = clock;
        this.adminKeyHashes = List.copyOf(adminKeyHashes);
        this.grants = Caffeine.newBuilder()
                .expireAfterWrite(CACHE_TTL)
                .maximumSize(MAX_CACHED_KEYS)
                .build();
    }

    /** Who {@code presentedKey} (the X-ApiKey header, if sent) belongs to, or why it is refused. */
    public KeyCheck check(Optional<String> presentedKey) {
        if (presentedKey.isEmpty()) {
            return new KeyCheck.Refused(KeyCheck.Reason.MISSING);
        }
        String key = presentedKey.get();
        if (key.isEmpty() || key.length() > MAX_KEY_LENGTH) {
            return new KeyCheck.Refused(KeyCheck.Reason.UNKNOWN);
        }
        String hash = Secrets.sha256Hex(key);
        if (isAdminHash(hash)) {
            return new KeyCheck.Admin();
        }
        Optional<KeyGrant> grant = grants.get(hash, keys::findGrant).filter(g -> g.usableAt(clock.instant()));
        if (grant.isEmpty()) {
            return new KeyCheck.Refused(KeyCheck.Reason.UNKNOWN);
        }
        if (grant.get().accountSuspended()) {
            return new KeyCheck.Refused(KeyCheck.Reason.ACCOUNT_SUSPENDED);
        }
        return new KeyCheck.OfCaller(new Caller(
                grant.get().accountId(), grant.get().keyId(), grant.get().planId()));
    }

    /** Forgets cached grants on this node, after a change that must show at once. */
    public void forgetCachedGrants() {
        grants.invalidateAll();
    }

    private boolean isAdminHash(String hash) {
        boolean match = false;
        for (String adminHash : adminKeyHashes) {
            match |= Secrets.sameHash(adminHash, hash);
        }
        return match;
    }
}
