package dev.pulseledger.ledger;

/** The outcome of one {@link LedgerCommand}. */
public sealed interface LedgerOutcome
        permits SpendResult,
                RevertResult,
                CreditResult,
                OpenResult,
                PlanChangeResult,
                TouchResult,
                ReserveResult,
                SettleResult,
                ReleaseResult {}
