package dev.pulseledger.operators;

import dev.pulseledger.keys.AccessChange;
import dev.pulseledger.keys.AccessFeed;
import dev.pulseledger.keys.Actor;
import dev.pulseledger.keys.AdminKeyRing;
import dev.pulseledger.keys.Role;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Every operator and live admin key, held in memory and read again whenever the access feed brings an
 * operator change from any node: operators are few, so a whole reload is simpler than patching. A key
 * configured at start ({@code --admin-key}) acts for the earliest owner who is not disabled.
 */
public final class OperatorDirectory implements AdminKeyRing, AccessFeed.Listener {
    /** The credential an audit entry names for the configured key, which has no stored id. */
    public static final String CONFIGURED_KEY = "configured";

    /** What the directory knows at one moment: admin key hashes to their actors, operators by id. */
    private record Snapshot(Map<String, Actor> byKeyHash, Map<String, Operator> byId) {}

    private final OperatorStore store;
    private final Optional<String> configuredKeyHash;
    private volatile Snapshot snapshot = new Snapshot(Map.of(), Map.of());

    private OperatorDirectory(OperatorStore store, Optional<String> configuredKeyHash) {
        this.store = store;
        this.configuredKeyHash = configuredKeyHash;
    }

    /** Loads every operator, then follows the feed; the feed must not have started reading yet. */
    public static OperatorDirectory load(OperatorStore store, Optional<String> configuredKeyHash, AccessFeed feed) {
        OperatorDirectory directory = new OperatorDirectory(store, configuredKeyHash);
        directory.reload();
        feed.subscribe(directory);
        return directory;
    }

    @Override
    public Optional<Actor> actor(String keyHash) {
        return Optional.ofNullable(snapshot.byKeyHash().get(keyHash));
    }

    /** The operator with this id if they exist and are not disabled. */
    public Optional<Operator> active(String operatorId) {
        return Optional.ofNullable(snapshot.byId().get(operatorId)).filter(operator -> !operator.disabled());
    }

    @Override
    public void changed(AccessChange change) {
        if (change.kind() == AccessChange.Kind.OPERATOR) {
            reload();
        }
    }

    @Override
    public void lost() {
        reload();
    }

    private void reload() {
        List<Operator> operators = store.list();
        Map<String, Operator> byId = new HashMap<>();
        operators.forEach(operator -> byId.put(operator.id(), operator));
        Map<String, Actor> byKeyHash = new HashMap<>();
        for (OperatorStore.LiveKey key : store.liveKeys()) {
            Operator operator = byId.get(key.operatorId());
            if (operator != null && !operator.disabled()) {
                byKeyHash.put(key.hash(), actor(operator, key.keyId()));
            }
        }
        configuredKeyHash.ifPresent(hash -> operators.stream()
                .filter(operator -> operator.role() == Role.OWNER && !operator.disabled())
                .findFirst()
                .ifPresent(owner -> byKeyHash.put(hash, actor(owner, CONFIGURED_KEY))));
        snapshot = new Snapshot(Map.copyOf(byKeyHash), Map.copyOf(byId));
    }

    private static Actor actor(Operator operator, String keyId) {
        return new Actor(operator.id(), operator.name(), operator.role(), Actor.VIA_KEY, keyId);
    }
}
