package dev.pulseledger.keys;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import dev.pulseledger.http.ProblemException;
import dev.pulseledger.http.Requests;
import io.helidon.webserver.http.ServerRequest;
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
    private static final String CHALLENGE = "ApiKey header=\"X-ApiKey\"";

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

    /**
     * The caller of this request, authenticated at most once per request: the rate-limit filter
     * and the route both need it, and hashing and looking up the key twice is waste on the hot path.
     */
    public Caller caller(ServerRequest req) {
        Optional<Caller> known = req.context().get(Caller.class);
        if (known.isPresent()) {
            return known.get();
        }
        Caller caller = caller(Requests.apiKey(req));
        req.context().register(caller);
        return caller;
    }

    /** The caller behind the X-ApiKey header, or the contract's 401/403 problem. */
    public Caller caller(Optional<String> presentedKey) {
        String key = presentedKey.orElseThrow(Authenticator::missingKey);
        if (key.isEmpty() || key.length() > MAX_KEY_LENGTH) {
            throw invalidKey();
        }
        String hash = Secrets.sha256Hex(key);
        if (isAdminHash(hash)) {
            throw forbidden("An admin key is not a caller key; use a caller key on /api/.");
        }
        KeyGrant grant = grants.get(hash, keys::findGrant)
                .filter(g -> g.usableAt(clock.instant()))
                .orElse(null);
        if (grant == null) {
            throw invalidKey();
        }
        if (grant.accountSuspended()) {
            throw new ProblemException(403, "account_suspended", "Forbidden", "This account is suspended.");
        }
        return new Caller(grant.accountId(), grant.keyId(), grant.planId());
    }

    /** Passes only for an admin key; a usable caller key gets 403, anything else 401. */
    public void requireAdmin(Optional<String> presentedKey) {
        String key = presentedKey.orElseThrow(Authenticator::missingKey);
        if (key.isEmpty() || key.length() > MAX_KEY_LENGTH) {
            throw invalidKey();
        }
        String hash = Secrets.sha256Hex(key);
        if (isAdminHash(hash)) {
            return;
        }
        if (grants.get(hash, keys::findGrant)
                .filter(g -> g.usableAt(clock.instant()))
                .isPresent()) {
            throw forbidden("This endpoint needs an admin key.");
        }
        throw invalidKey();
    }

    /** True only for an admin key: what the operator console accepts at sign-in. */
    public boolean isAdminKey(String presentedKey) {
        return !presentedKey.isEmpty()
                && presentedKey.length() <= MAX_KEY_LENGTH
                && isAdminHash(Secrets.sha256Hex(presentedKey));
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

    private static ProblemException missingKey() {
        return new ProblemException(401, "missing_api_key", "Unauthorized", "Send your API key in the X-ApiKey header.")
                .withHeader("WWW-Authenticate", CHALLENGE);
    }

    private static ProblemException invalidKey() {
        return new ProblemException(
                        401, "invalid_api_key", "Unauthorized", "The API key is unknown, revoked or expired.")
                .withHeader("WWW-Authenticate", CHALLENGE);
    }

    private static ProblemException forbidden(String detail) {
        return new ProblemException(403, "forbidden", "Forbidden", detail);
    }
}
