package dev.pulseledger.keys;

import java.time.Clock;
import java.util.Optional;

/**
 * Decides who a presented key belongs to, from the {@link KeyDirectory}: a revocation on any node
 * takes effect everywhere as soon as the access change feed brings it, well within 5 seconds.
 */
public final class Authenticator {
    public static final int MAX_KEY_LENGTH = 200;

    private final KeyDirectory directory;
    private final Clock clock;
    private final AdminKeyRing adminKeys;

    public Authenticator(KeyDirectory directory, Clock clock, AdminKeyRing adminKeys) {
        this.directory = directory;
        this.clock = clock;
        this.adminKeys = adminKeys;
    }

    /** Who {@code presentedKey} (the X-ApiKey header, if sent) belongs to, or why it is refused. */
    public KeyCheck check(Optional<String> presentedKey) {
        return check(presentedKey, true);
    }

    /**
     * As {@link #check(Optional)}; with {@code waitForNewKeys} false, a key unknown to this node is
     * refused at once instead of waiting for the access feed to show keys just created elsewhere.
     */
    public KeyCheck check(Optional<String> presentedKey, boolean waitForNewKeys) {
        if (presentedKey.isEmpty()) {
            return new KeyCheck.Refused(KeyCheck.Reason.MISSING);
        }
        String key = presentedKey.get();
        if (key.isEmpty() || key.length() > MAX_KEY_LENGTH) {
            return new KeyCheck.Refused(KeyCheck.Reason.UNKNOWN);
        }
        String hash = Secrets.sha256Hex(key);
        Optional<Actor> admin = adminKeys.actor(hash);
        if (admin.isPresent()) {
            return new KeyCheck.Admin(admin.get());
        }
        Optional<KeyGrant> grant = directory.grant(hash, waitForNewKeys).filter(g -> g.usable(clock));
        if (grant.isEmpty()) {
            return new KeyCheck.Refused(KeyCheck.Reason.UNKNOWN);
        }
        if (grant.get().accountSuspended()) {
            return new KeyCheck.Refused(KeyCheck.Reason.ACCOUNT_SUSPENDED);
        }
        return new KeyCheck.OfCaller(new Caller(
                grant.get().accountId(), grant.get().keyId(), grant.get().planId()));
    }

    /** Makes a change just committed on this node show at once in what this node answers. */
    public void catchUp() {
        directory.catchUp();
    }
}
