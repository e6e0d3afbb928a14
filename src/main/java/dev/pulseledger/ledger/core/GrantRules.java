package dev.pulseledger.ledger.core;

import dev.pulseledger.accounts.Pools;
import dev.pulseledger.events.NewEvent;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.jspecify.annotations.Nullable;

/**
 * Where tokens sit (CONTRACT §7): granting, drawing the soonest to expire first, giving back to the grants
 * they came from, and expiring. Every token of a balance is in exactly one grant.
 */
final class GrantRules {
    private final BatchState batch;

    GrantRules(BatchState batch) {
        this.batch = batch;
    }

    /**
     * Takes {@code amount} from the grants of the account's {@code pool}, the soonest to expire first, for a
     * spending or hold: never from another pool.
     */
    void draw(WorkingAccount account, String pool, String ownerId, long amount) {
        List<Allocation> drawn = new ArrayList<>();
        long left = amount;
        for (Grant grant : live(account, pool, null)) {
            if (left == 0) {
                break;
            }
            long take = Math.min(left, grant.remaining());
            batch.putGrant(grant.withRemaining(grant.remaining() - take));
            drawn.add(new Allocation(ownerId, grant.id(), take, 0));
            left -= take;
        }
        if (left > 0) {
            throw new IllegalStateException("The grants of " + account.id + "/" + pool + " hold less than its balance");
        }
        batch.allocations.put(ownerId, drawn);
        batch.changes.allocating.add(ownerId);
    }

    /**
     * Returns {@code tokens} that a spending or reservation drew to the grants they came from, those that
     * expire last first; tokens whose grant has expired expire again at once, with a line each and one
     * credits.expired event.
     */
    void giveBack(WorkingAccount account, String ownerId, long tokens) {
        List<Allocation> drawn = batch.allocations.get(ownerId);
        if (drawn == null || drawn.isEmpty()) {
            throw new IllegalStateException(ownerId + " has no record of its grants");
        }
        Map<String, Long> expiredAgain = new LinkedHashMap<>();
        List<Allocation> returned = new ArrayList<>(drawn.size());
        long left = tokens;
        for (Allocation allocation : inSpendingOrder(drawn).reversed()) {
            long back = Math.min(left, allocation.unreturned());
            returned.add(allocation.returning(back));
            returnToGrant(account, allocation.grantId(), back, expiredAgain);
            left -= back;
        }
        if (left > 0) {
            throw new IllegalStateException(ownerId + " holds less than " + tokens + " tokens");
        }
        batch.allocations.put(ownerId, returned);
        batch.changes.returning.add(ownerId);
        expireReturned(account, ownerId, expiredAgain);
    }

    /** The allocations in the order their grants are spent in: the soonest to expire first. */
    List<Allocation> inSpendingOrder(List<Allocation> drawn) {
        if (drawn.size() < 2) { // most spendings drew from one grant: nothing to sort
            return drawn;
        }
        List<Allocation> ordered = new ArrayList<>(drawn);
        ordered.sort(Comparator.comparing(a -> batch.grant(a.grantId()), Grant.SPENDING_ORDER));
        return ordered;
    }

    /** Puts tokens back in their grant, or notes them in {@code expiredAgain} if it has expired. */
    void returnToGrant(WorkingAccount account, String grantId, long tokens, Map<String, Long> expiredAgain) {
        if (tokens == 0) {
            return;
        }
        Grant grant = batch.grant(grantId);
        if (grant.expiredBy(batch.now)) {
            batch.putGrant(grant.expireReturned(tokens));
            expiredAgain.merge(grant.id(), tokens, Long::sum);
        } else {
            batch.putGrant(grant.withRemaining(grant.remaining() + tokens));
            grant.expiresAt().ifPresent(account::dueNoLaterThan);
        }
    }

    /** Returned tokens whose grant has expired leave the balance again: an expire line each. */
    void expireReturned(WorkingAccount account, String ownerId, Map<String, Long> expiredAgain) {
        String pool = Pools.DEFAULT;
        for (Map.Entry<String, Long> again : expiredAgain.entrySet()) {
            pool = batch.grant(again.getKey()).pool();
            batch.addToBalance(account, pool, -again.getValue());
            batch.line(
                    account,
                    pool,
                    LedgerKind.EXPIRE,
                    -again.getValue(),
                    Optional.of(ownerId),
                    Optional.of(again.getKey()));
        }
        long expired = expiredAgain.values().stream().mapToLong(Long::longValue).sum();
        if (expired > 0) {
            batch.changes.events.add(NewEvent.creditsExpired(
                    account.id, expired, expiredAgain, Optional.of(ownerId), account.balance(pool)));
        }
    }

    /** A new grant of {@code amount} tokens in the {@code default} pool, with its credit or allowance line. */
    void grant(
            WorkingAccount account,
            GrantKind kind,
            long amount,
            Optional<Instant> expiresAt,
            Optional<Instant> periodStart,
            @Nullable String reason) {
        grant(account, Pools.DEFAULT, kind, amount, expiresAt, periodStart, reason);
    }

    /** A new grant of {@code amount} tokens in {@code pool}, which goes on record, with its credit or allowance line. */
    void grant(
            WorkingAccount account,
            String pool,
            GrantKind kind,
            long amount,
            Optional<Instant> expiresAt,
            Optional<Instant> periodStart,
            @Nullable String reason) {
        LedgerKind lineKind = kind == GrantKind.ALLOWANCE ? LedgerKind.ALLOWANCE : LedgerKind.CREDIT;
        grant(account, pool, kind, lineKind, amount, expiresAt, periodStart, reason);
    }

    /** A new grant in {@code pool} with a line of {@code lineKind} (an SLA credit's own); returns the grant's id. */
    String grant(
            WorkingAccount account,
            String pool,
            GrantKind kind,
            LedgerKind lineKind,
            long amount,
            Optional<Instant> expiresAt,
            Optional<Instant> periodStart,
            @Nullable String reason) {
        Grant grant = new Grant(
                batch.newGrantId(), account.id, pool, kind, amount, amount, 0, expiresAt, periodStart, batch.now);
        batch.putGrant(grant);
        batch.changes.newGrantIds.add(grant.id());
        account.grantIds.add(grant.id());
        account.notePool(pool);
        batch.addToBalance(account, pool, amount);
        batch.changes.lines.add(new LedgerLine(
                account.id,
                pool,
                lineKind,
                amount,
                account.balance(pool),
                Optional.empty(),
                Optional.of(grant.id()),
                Optional.ofNullable(reason)));
        expiresAt.ifPresent(account::dueNoLaterThan);
        return grant.id();
    }

    /** Expires every grant whose expiry has come, and raises credits.expired for them. */
    void expireDue(WorkingAccount account) {
        Map<String, Long> expired = new LinkedHashMap<>();
        long total = 0;
        for (Grant grant : live(account, null, null)) {
            if (grant.expiredBy(batch.now)) {
                long tokens = expire(account, grant, grant.remaining());
                expired.put(grant.id(), tokens);
                total += tokens;
            }
        }
        if (total > 0) {
            batch.changes.events.add(
                    NewEvent.creditsExpired(account.id, total, expired, Optional.empty(), account.balance));
        }
    }

    /** Takes {@code tokens} out of the grant and the balance, with an expire line; returns how many. */
    long expire(WorkingAccount account, Grant grant, long tokens) {
        if (tokens <= 0) {
            return 0;
        }
        batch.putGrant(grant.expire(tokens));
        batch.addToBalance(account, grant.pool(), -tokens);
        batch.line(account, grant.pool(), LedgerKind.EXPIRE, -tokens, Optional.empty(), Optional.of(grant.id()));
        return tokens;
    }

    /**
     * The account's grants with tokens left (of one pool and kind, or every pool or kind when null), in
     * spending order.
     */
    List<Grant> live(WorkingAccount account, @Nullable String pool, @Nullable GrantKind kind) {
        // A loop, and a sort only of two or more: this runs for every draw, and most accounts have one grant.
        List<Grant> live = new ArrayList<>(account.grantIds.size());
        for (String grantId : account.grantIds) {
            Grant grant = batch.grant(grantId);
            if (grant.remaining() > 0
                    && (pool == null || grant.pool().equals(pool))
                    && (kind == null || grant.kind() == kind)) {
                live.add(grant);
            }
        }
        if (live.size() > 1) {
            live.sort(Grant.SPENDING_ORDER);
        }
        return live;
    }
}
