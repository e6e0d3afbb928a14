package dev.pulseledger.ledger.web;

import dev.pulseledger.accounts.PlanJson;
import dev.pulseledger.accounts.PlanJson.PeriodBody;
import dev.pulseledger.http.Times;
import dev.pulseledger.ledger.read.SlaMeter;
import dev.pulseledger.ledger.read.SlaReports;
import java.util.List;
import org.jspecify.annotations.Nullable;

/** The JSON bodies of SLA credits (CONTRACT §13): the caller's view and the operator's preview. */
final class SlaJson {
    private SlaJson() {}

    /** {@code GET /api/tokens/sla} without an SLA. */
    record NoSla(PlanJson.@Nullable SlaJson sla) {}

    /** {@code GET /api/tokens/sla}: the SLA, the period so far, and the credits so far. */
    record CallerSla(
            PlanJson.SlaJson sla,
            PeriodBody period,
            double uptime,
            List<ServiceBody> services,
            int creditPercentIfEndedNow,
            List<CreditBody> credits) {}

    /** One service's uptime so far; null while it has no data (it did not exist yet). */
    record ServiceBody(String id, @Nullable Double uptime) {
        static List<ServiceBody> of(SlaMeter.Uptime uptime) {
            return uptime.services().stream()
                    .map(s -> new ServiceBody(s.serviceId(), s.uptime().orElse(null)))
                    .toList();
        }
    }

    record CreditBody(
            String grantId,
            String periodStart,
            String periodEnd,
            double uptime,
            int creditPercent,
            long amount,
            List<String> incidents) {
        static CreditBody of(SlaReports.Credit credit) {
            return new CreditBody(
                    credit.grantId(),
                    Times.format(credit.periodStart()),
                    Times.format(credit.periodEnd()),
                    credit.uptime(),
                    credit.creditPercent(),
                    credit.amount(),
                    credit.incidents());
        }
    }

    /** A revoked grant: {@code revoked} tokens were left in it and left the balance. */
    record Revoked(String grantId, long revoked, long balance, String revokedAt) {}

    /** {@code GET /admin/sla/preview}: the accounts that would be credited now, and the tokens in all. */
    record Preview(String planId, PlanJson.@Nullable SlaJson sla, List<PreviewAccount> accounts, long total) {}

    record PreviewAccount(
            String accountId, String periodStart, String periodEnd, double uptime, int creditPercent, long amount) {
        static PreviewAccount of(SlaReports.Preview preview) {
            SlaReports.SoFar soFar = preview.soFar();
            return new PreviewAccount(
                    preview.accountId(),
                    Times.format(soFar.period().start()),
                    Times.format(soFar.period().end()),
                    soFar.uptime().lowest(),
                    soFar.creditPercentIfEndedNow(),
                    soFar.creditIfEndedNow());
        }
    }
}
