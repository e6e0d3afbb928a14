package dev.pulseledger.operators;

/** How a change of an operator ended: done, no such operator, an email in use, or the last owner kept. */
public sealed interface ChangeOutcome {
    record Changed(Operator operator) implements ChangeOutcome {}

    record NotFound() implements ChangeOutcome {}

    record EmailTaken() implements ChangeOutcome {}

    /** The change would leave no owner who is not disabled. */
    record LastOwner() implements ChangeOutcome {}
}
