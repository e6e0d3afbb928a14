package dev.pulseledger.ledger.core;

import dev.pulseledger.accounts.Pools;
import dev.pulseledger.accounts.SlaTerms;
import dev.pulseledger.events.NewEvent;
import java.util.Optional;

/**
 * SLA credits (CONTRACT §13): each ended period of an account is measured once; when its uptime is below a
 * tier's {@code below}, the tier with the largest {@code creditPercent} among those applies and the account
 * gets a never-expiring credit grant of {@code floor(allowance of that period × creditPercent / 100)} tokens.
 * An operator may take back what is left of any credit grant, once.
 */
final class SlaRules {
    private final BatchState batch;
    private final GrantRules grants;
    private final PeriodRules periods;

    SlaRules(BatchState batch, GrantRules grants, PeriodRules periods) {
        this.batch = batch;
        this.grants = grants;
        this.periods = periods;
    }

    SlaCreditResult credit(LedgerCommand.SlaCredit command) {
        if (!batch.accounts.containsKey(command.accountId())) {
            return new SlaCreditResult.AccountNotFound();
        }
        SlaMeasurement measured = command.measurement();
        SlaPeriod.Key key =
                new SlaPeriod.Key(command.accountId(), measured.period().start());
        if (batch.read.measuredSlaPeriods().contains(key) || batch.changes.slaPeriods.containsKey(key)) {
            return new SlaCreditResult.AlreadyMeasured();
        }
        WorkingAccount account = periods.upToDate(command.accountId());
        int percent = measured.sla()
                .tierFor(measured.uptime())
                .map(SlaTerms.Tier::creditPercent)
                .orElse(0);
        long amount = creditAmount(measured.periodAllowance(), percent);
        if (account.balance(Pools.DEFAULT) > LedgerCore.MAX_BALANCE - amount) {
            amount = 0; // far beyond any real balance: the period is recorded rather than measured again forever
        }
        Optional<String> grantId = Optional.empty();
        if (amount > 0) {
            grantId = Optional.of(grants.grant(
                    account,
                    Pools.DEFAULT, // CONTRACT §14: SLA credits go to the default pool
                    GrantKind.CREDIT,
                    LedgerKind.SLA_CREDIT,
                    amount,
                    Optional.empty(),
                    Optional.empty(),
                    "sla credit for " + measured.period().start()));
        }
        SlaPeriod period = new SlaPeriod(
                account.id,
                measured.period(),
                measured.uptime(),
                measured.periodAllowance(),
                percent,
                amount,
                grantId,
                measured.incidentIds(),
                batch.now);
        batch.changes.slaPeriods.put(key, period);
        if (grantId.isEmpty()) {
            return new SlaCreditResult.NotBreached();
        }
        batch.changes.events.add(NewEvent.slaCredited(
                account.id,
                grantId.get(),
                measured.period().start(),
                measured.period().end(),
                measured.uptime(),
                percent,
                amount,
                measured.incidentIds(),
                account.balance(Pools.DEFAULT)));
        return new SlaCreditResult.Credited(grantId.get(), amount, percent);
    }

    /**
     * Takes back what is left of a credit grant (an SLA credit or an operator's), once: its tokens expire now,
     * with a line of their own.
     */
    RevokeResult revoke(LedgerCommand.RevokeGrant command) {
        if (!batch.accounts.containsKey(command.accountId())) {
            return new RevokeResult.AccountNotFound();
        }
        Grant read = batch.grants.get(command.grantId());
        if (read == null || !read.accountId().equals(command.accountId()) || read.kind() != GrantKind.CREDIT) {
            return new RevokeResult.GrantNotFound();
        }
        if (batch.read.revokedGrants().contains(read.id()) || batch.changes.revocations.containsKey(read.id())) {
            return new RevokeResult.AlreadyRevoked();
        }
        WorkingAccount account = periods.upToDate(command.accountId());
        Grant grant = batch.grant(read.id());
        long taken = grants.expire(account, grant, grant.remaining());
        batch.changes.revocations.put(grant.id(), new Revocation(grant.id(), account.id, taken, batch.now));
        return new RevokeResult.Revoked(grant.id(), taken, account.balance(grant.pool()), batch.now);
    }

    /** {@code floor(allowance × percent / 100)}; exact, since an allowance is at most 10¹² and a percent 100. */
    static long creditAmount(long allowance, int percent) {
        return Math.multiplyExact(allowance, percent) / 100;
    }
}
