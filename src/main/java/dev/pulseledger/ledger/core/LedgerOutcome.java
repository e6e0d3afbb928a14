package dev.pulseledger.ledger.core;

/** The outcome of one {@link LedgerCommand}. */
public sealed interface LedgerOutcome
        permits SpendResult,
                RevertResult,
                CreditResult,
                OpenResult,
                PlanChangeResult,
                InPeriodChangeResult,
                CancelPlanChangeResult,
                TouchResult,
                ReserveResult,
                SettleResult,
                ReleaseResult,
                SlaCreditResult,
                RevokeResult {}
