package dev.pulseledger.ledger.core;

import dev.pulseledger.accounts.PlanPeriod;

/** What the ledger needs of a plan: its allowance per period and how much of it rolls over. */
public record PlanTerms(String planId, long allowance, PlanPeriod period, long rollover) {}
