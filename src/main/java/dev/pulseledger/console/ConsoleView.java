package dev.pulseledger.console;

import dev.pulseledger.http.PageHeaders;
import dev.pulseledger.http.Responses;
import dev.pulseledger.http.RoleRules;
import dev.pulseledger.keys.Role;
import io.helidon.http.HeaderNames;
import io.helidon.webserver.http.ServerResponse;
import io.pebbletemplates.pebble.PebbleEngine;
import io.pebbletemplates.pebble.extension.AbstractExtension;
import io.pebbletemplates.pebble.extension.Filter;
import io.pebbletemplates.pebble.loader.ClasspathLoader;
import io.pebbletemplates.pebble.template.EvaluationContext;
import io.pebbletemplates.pebble.template.PebbleTemplate;
import java.io.IOException;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.text.NumberFormat;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * Renders the console's Pebble templates ({@code /console/templates/*.peb}) as HTML pages with the
 * console's headers. Pebble escapes every value for HTML unless a template says otherwise, and no
 * console template does.
 */
final class ConsoleView {
    /** Scripts, styles and images only from this node; no inline script, no inline style, no framing. */
    static final String CONTENT_SECURITY_POLICY = "default-src 'none'; script-src 'self'; style-src 'self';"
            + " img-src 'self'; connect-src 'self'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'";

    private static final DateTimeFormatter HUMAN_TIME = DateTimeFormatter.ofPattern(
                    "yyyy-MM-dd HH:mm:ss 'UTC'", Locale.ENGLISH)
            .withZone(ZoneOffset.UTC);

    /** What a {@code datetime-local} input holds, in UTC: {@code 2026-11-23T14:30}. */
    private static final DateTimeFormatter INPUT_TIME =
            DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm", Locale.ENGLISH).withZone(ZoneOffset.UTC);

    /** The navigation entry each page belongs to, marked as the current page. */
    private static final Map<String, String> SECTIONS = Map.ofEntries(
            Map.entry("dashboard", "dashboard"),
            Map.entry("accounts", "accounts"),
            Map.entry("account", "accounts"),
            Map.entry("key-issued", "accounts"),
            Map.entry("services", "services"),
            Map.entry("plans", "plans"),
            Map.entry("incidents", "incidents"),
            Map.entry("maintenance", "maintenance"),
            Map.entry("webhooks", "webhooks"),
            Map.entry("webhook", "webhooks"),
            Map.entry("status-subscribers", "status-subscribers"),
            Map.entry("audit", "audit"));

    private final PebbleEngine engine;

    ConsoleView() {
        ClasspathLoader loader = new ClasspathLoader(ConsoleView.class.getClassLoader());
        loader.setPrefix("console/templates");
        loader.setSuffix(".peb");
        this.engine = new PebbleEngine.Builder()
                .loader(loader)
                .strictVariables(false)
                .autoEscaping(true)
                .extension(new ConsoleFilters())
                .build();
    }

    /**
     * Sends {@code template} rendered with {@code model}; the layout also gets the session's CSRF token,
     * the operator's name and role, and {@code can}: which links and forms the role may use, so a page
     * shows an operator only what the server would let them do.
     */
    void render(
            ServerResponse res,
            int status,
            String template,
            Optional<ConsoleSessions.Session> session,
            Map<String, Object> model) {
        Map<String, Object> context = new HashMap<>(model);
        context.put("csrf", session.map(ConsoleSessions.Session::csrfToken).orElse(""));
        context.put("signedIn", session.isPresent());
        session.ifPresent(signedIn -> {
            context.put("operatorName", signedIn.actor().operatorName());
            context.put("role", signedIn.actor().role().text());
            context.put("can", abilities(signedIn.actor().role()));
        });
        context.putIfAbsent("done", "");
        context.put("section", SECTIONS.getOrDefault(template, ""));
        context.put("page", template);
        StringWriter html = new StringWriter();
        try {
            PebbleTemplate compiled = engine.getTemplate(template);
            compiled.evaluate(html, context);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        headers(res);
        Responses.send(res, status, "text/html; charset=utf-8", html.toString().getBytes(StandardCharsets.UTF_8));
    }

    /** What the role may do, by the route table's own rules, named for the templates. */
    private static Map<String, Boolean> abilities(Role role) {
        return Map.of(
                "billing", RoleRules.forTemplate("/admin/accounts").allows(role, "POST"),
                "status", RoleRules.forTemplate("/admin/services").allows(role, "POST"),
                "webhooks", RoleRules.forTemplate("/admin/webhooks").allows(role, "GET"),
                "operators", RoleRules.forTemplate("/admin/operators").allows(role, "POST"));
    }

    /** The console's own 404 page, for an id that names nothing. */
    void notFound(ServerResponse res, ConsoleSessions.Session session) {
        render(
                res,
                404,
                "message",
                Optional.of(session),
                Map.of("title", "Not found", "message", "Nothing has this id. It may have been deleted."));
    }

    /** The headers of every console response: strict CSP, and nothing kept by caches or the back button. */
    static void headers(ServerResponse res) {
        PageHeaders.apply(res, CONTENT_SECURITY_POLICY);
        res.header(HeaderNames.CACHE_CONTROL, "no-store");
    }

    /** Filters for the values templates show: {@code time}, {@code inputTime} and {@code tokens}. */
    private static final class ConsoleFilters extends AbstractExtension {
        @Override
        public Map<String, Filter> getFilters() {
            return Map.of(
                    "time",
                    new TimeFilter(HUMAN_TIME, "—"),
                    "inputTime",
                    new TimeFilter(INPUT_TIME, ""),
                    "tokens",
                    new TokensFilter());
        }
    }

    /** An Instant, or an Optional of one, in the filter's format ("2026-11-23 09:40:00 UTC"); else a blank. */
    private static final class TimeFilter implements Filter {
        private final DateTimeFormatter format;
        private final String blank;

        TimeFilter(DateTimeFormatter format, String blank) {
            this.format = format;
            this.blank = blank;
        }

        @Override
        public Object apply(
                Object input,
                Map<String, Object> args,
                PebbleTemplate self,
                EvaluationContext context,
                int lineNumber) {
            Object value = input instanceof Optional<?> optional ? optional.orElse(null) : input;
            return value instanceof Instant instant ? format.format(instant) : blank;
        }

        @Override
        public List<String> getArgumentNames() {
            return List.of();
        }
    }

    /** A whole number of tokens with thousands separators, signed when asked: {@code tokens(true)}. */
    private static final class TokensFilter implements Filter {
        @Override
        public Object apply(
                Object input,
                Map<String, Object> args,
                PebbleTemplate self,
                EvaluationContext context,
                int lineNumber) {
            long number = ((Number) input).longValue();
            String text = NumberFormat.getIntegerInstance(Locale.ENGLISH).format(number);
            boolean signed = Boolean.TRUE.equals(args.get("signed"));
            return signed && number > 0 ? "+" + text : text;
        }

        @Override
        public List<String> getArgumentNames() {
            return List.of("signed");
        }
    }
}
