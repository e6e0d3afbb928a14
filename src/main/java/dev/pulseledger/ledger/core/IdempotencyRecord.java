package dev.pulseledger.ledger.core;

import java.time.Duration;
import java.time.Instant;
import java.util.Optional;

/**
 * The first outcome of a spend, a reservation or a partial revert made under an idempotency key: enough
 * to answer a repeat with the same status and body. {@code subjectId} names the spending or reservation;
 * {@code detail} is a reservation's lifetime in seconds, or a spending's reverted amount right after a
 * partial revert.
 */
public record IdempotencyRecord(
        String accountId,
        String key,
        long amount,
        String outcome,
        Optional<String> subjectId,
        long balance,
        Instant createdAt,
        long detail) {

    public static final String SPENT = "spent";
    public static final String INSUFFICIENT_BALANCE = "insufficient_balance";
    public static final String RESERVED = "reserved";
    public static final String RESERVE_INSUFFICIENT_BALANCE = "reserve_insufficient_balance";
    public static final String REVERTED = "reverted";

    static IdempotencyRecord of(SpendRequest request, SpendResult result, Instant at) {
        String key = request.idempotencyKey().orElseThrow();
        return switch (result) {
            case SpendResult.Spent spent ->
                new IdempotencyRecord(
                        request.accountId(),
                        key,
                        request.amount(),
                        SPENT,
                        Optional.of(spent.spending().id()),
                        spent.balance(),
                        at,
                        0);
            case SpendResult.InsufficientBalance insufficient ->
                new IdempotencyRecord(
                        request.accountId(),
                        key,
                        request.amount(),
                        INSUFFICIENT_BALANCE,
                        Optional.empty(),
                        insufficient.balance(),
                        at,
                        0);
            default -> throw new IllegalArgumentException("Not a first outcome: " + result);
        };
    }

    static IdempotencyRecord of(LedgerCommand.Reserve command, ReserveResult result, Instant at) {
        String key = command.idempotencyKey().orElseThrow();
        long seconds = command.lifetime().toSeconds();
        return switch (result) {
            case ReserveResult.Reserved reserved ->
                new IdempotencyRecord(
                        command.accountId(),
                        key,
                        command.amount(),
                        RESERVED,
                        Optional.of(reserved.reservation().id()),
                        reserved.balance(),
                        at,
                        seconds);
            case ReserveResult.InsufficientBalance insufficient ->
                new IdempotencyRecord(
                        command.accountId(),
                        key,
                        command.amount(),
                        RESERVE_INSUFFICIENT_BALANCE,
                        Optional.empty(),
                        insufficient.balance(),
                        at,
                        seconds);
            default -> throw new IllegalArgumentException("Not a first outcome: " + result);
        };
    }

    static IdempotencyRecord of(LedgerCommand.Revert command, RevertResult.Reverted reverted, Instant at) {
        return new IdempotencyRecord(
                command.accountId(),
                command.idempotencyKey().orElseThrow(),
                command.amount().orElseThrow(),
                REVERTED,
                Optional.of(command.spendingId()),
                reverted.balance(),
                at,
                reverted.spending().revertedAmount());
    }

    /** The first response again, or a refusal when the repeat asks for something else. */
    SpendResult replay(SpendRequest repeat) {
        if (repeat.amount() != amount || !(SPENT.equals(outcome) || INSUFFICIENT_BALANCE.equals(outcome))) {
            return new SpendResult.IdempotencyKeyReused(amount);
        }
        if (SPENT.equals(outcome)) {
            Spending spending = new Spending(
                    subjectId.orElseThrow(),
                    accountId,
                    repeat.pool(),
                    amount,
                    0,
                    createdAt,
                    Optional.empty(),
                    Optional.empty());
            return new SpendResult.Spent(spending, balance, true);
        }
        return new SpendResult.InsufficientBalance(balance, amount, true);
    }

    ReserveResult replay(LedgerCommand.Reserve repeat) {
        boolean same = repeat.amount() == amount && repeat.lifetime().toSeconds() == detail;
        if (same && RESERVED.equals(outcome)) {
            Reservation first = Reservation.held(
                    subjectId.orElseThrow(),
                    accountId,
                    repeat.pool(),
                    amount,
                    createdAt,
                    createdAt.plus(Duration.ofSeconds(detail)),
                    repeat.keyId());
            return new ReserveResult.Reserved(first, balance, true);
        }
        if (same && RESERVE_INSUFFICIENT_BALANCE.equals(outcome)) {
            return new ReserveResult.InsufficientBalance(balance, amount, true);
        }
        return new ReserveResult.IdempotencyKeyReused();
    }

    /** The first partial revert's answer, given the spending as it stands now. */
    RevertResult replay(LedgerCommand.Revert repeat, Spending current) {
        boolean same = REVERTED.equals(outcome)
                && repeat.amount().equals(Optional.of(amount))
                && subjectId.equals(Optional.of(repeat.spendingId()));
        if (!same) {
            return new RevertResult.IdempotencyKeyReused();
        }
        Spending first = new Spending(
                current.id(),
                current.accountId(),
                current.pool(),
                current.amount(),
                detail,
                current.createdAt(),
                Optional.of(createdAt),
                current.charge());
        return new RevertResult.Reverted(first, balance, true);
    }
}
