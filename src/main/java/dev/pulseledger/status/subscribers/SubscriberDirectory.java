package dev.pulseledger.status.subscribers;

import dev.pulseledger.store.Database;
import dev.pulseledger.store.Ids;
import dev.pulseledger.store.Page;
import dev.pulseledger.store.Sql;
import dev.pulseledger.webhooks.Webhook;
import dev.pulseledger.webhooks.WebhookStore;
import java.time.Instant;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import org.jdbi.v3.core.Handle;

/**
 * The operator's view of subscribers: pages with a search by part of an email address or a webhook's URL,
 * counts per service, webhooks.
 */
public final class SubscriberDirectory {
    /** Longest search text; an address is at most 254 characters. */
    public static final int MAX_SEARCH_LENGTH = 254;

    private static final String SELECT_PAGE = "SELECT " + SubscriberStore.SUBSCRIBER_COLUMNS
            + SubscriberStore.SUBSCRIBER_FROM
            + " WHERE s.seq > :after AND (:everyone OR s.email LIKE :pattern ESCAPE '!'"
            + " OR LOWER(w.url) LIKE :pattern ESCAPE '!') ORDER BY s.seq LIMIT :limit";
    private static final String COUNT_KINDS = "SELECT kind, confirmed_at IS NOT NULL AS confirmed, all_services,"
            + " COUNT(*) FROM status_subscribers GROUP BY kind, confirmed_at IS NOT NULL, all_services";
    private static final String COUNT_SERVICES = "SELECT x.service_id, COUNT(*) FROM status_subscriber_services x"
            + " JOIN status_subscribers s ON s.id = x.subscriber_id WHERE s.confirmed_at IS NOT NULL"
            + " OR s.kind = 'webhook' GROUP BY x.service_id ORDER BY x.service_id";
    private static final String INSERT_WEBHOOK_SUBSCRIBER = "INSERT INTO status_subscribers (id, kind, webhook_id,"
            + " all_services, created_at, confirmed_at) VALUES (:id, 'webhook', :webhook_id, :all_services, :now, :now)";

    /** How many subscribers there are, and how many follow each service (all-services ones apart). */
    public record Counts(
            long emailConfirmed, long emailPending, long webhooks, long allServices, TreeMap<String, Long> services) {}

    private final Database database;
    private final WebhookStore webhooks;

    public SubscriberDirectory(Database database, WebhookStore webhooks) {
        this.database = database;
        this.webhooks = webhooks;
    }

    /**
     * Subscribers after position {@code afterSeq}, oldest first; {@code search} matches part of an email
     * address or of a webhook subscriber's URL, in any case.
     */
    public Page<Subscriber> page(long afterSeq, int limit, Optional<String> search) {
        String pattern = "%" + likeEscaped(search.orElse("").toLowerCase(Locale.ROOT)) + "%";
        return database.read(connection -> {
            try (Handle sql = Sql.on(connection)) {
                return Page.of(
                        SubscriberStore.rows(
                                sql,
                                sql.createQuery(SELECT_PAGE)
                                        .bind("after", afterSeq)
                                        .bind("everyone", search.isEmpty())
                                        .bind("pattern", pattern)
                                        .bind("limit", limit + 1)),
                        limit,
                        s -> Long.toString(s.seq()));
            }
        });
    }

    public Counts counts() {
        return database.read(connection -> {
            try (Handle sql = Sql.on(connection)) {
                long confirmed = 0;
                long pending = 0;
                long hooks = 0;
                long all = 0;
                for (KindCount kind : sql.createQuery(COUNT_KINDS)
                        .map((rs, ctx) -> new KindCount(
                                "webhook".equals(rs.getString(1)), rs.getBoolean(2), rs.getBoolean(3), rs.getLong(4)))
                        .list()) {
                    if (kind.webhook()) {
                        hooks += kind.count();
                    } else if (kind.confirmed()) {
                        confirmed += kind.count();
                    } else {
                        pending += kind.count();
                    }
                    if (kind.allServices() && (kind.confirmed() || kind.webhook())) {
                        all += kind.count();
                    }
                }
                TreeMap<String, Long> services = new TreeMap<>();
                sql.createQuery(COUNT_SERVICES)
                        .map((rs, ctx) -> Map.entry(rs.getString(1), rs.getLong(2)))
                        .forEach(service -> services.put(service.getKey(), service.getValue()));
                return new Counts(confirmed, pending, hooks, all, services);
            }
        });
    }

    /** How many subscribers of one kind, state and choice there are. */
    private record KindCount(boolean webhook, boolean confirmed, boolean allServices, long count) {}

    /** A webhook subscriber: its endpoint (with {@code secret}) and its row, in one transaction. */
    public Optional<Subscriber> createWebhook(String url, ServiceChoice choice, String secret, Instant now) {
        Webhook webhook = new Webhook(Ids.webhook(), url, "status subscriber", Set.of(), now);
        String id = Ids.statusSubscriber();
        WebhookStore.Creation created = webhooks.create(webhook, secret, connection -> {
            try (Handle sql = Sql.on(connection)) {
                sql.createUpdate(INSERT_WEBHOOK_SUBSCRIBER)
                        .bind("id", id)
                        .bind("webhook_id", webhook.id())
                        .bind("all_services", choice.all())
                        .bind("now", now.toEpochMilli())
                        .execute();
                SubscriberStore.writeServices(sql, id, choice);
            }
        });
        if (created == WebhookStore.Creation.LIMIT_REACHED) {
            return Optional.empty();
        }
        return database.read(connection -> {
            try (Handle sql = Sql.on(connection)) {
                return SubscriberStore.byId(sql, id);
            }
        });
    }

    /** Every subscriber, page by page, for an export that never holds the whole list at once. */
    public void forEach(java.util.function.Consumer<Subscriber> each) {
        long after = 0;
        while (true) {
            Page<Subscriber> page = page(after, 500, Optional.empty());
            page.items().forEach(each);
            if (page.nextPosition().isEmpty()) {
                return;
            }
            after = Long.parseLong(page.nextPosition().get());
        }
    }

    private static String likeEscaped(String text) {
        StringBuilder escaped = new StringBuilder(text.length());
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c == '!' || c == '%' || c == '_') {
                escaped.append('!');
            }
            escaped.append(c);
        }
        return escaped.toString();
    }
}
