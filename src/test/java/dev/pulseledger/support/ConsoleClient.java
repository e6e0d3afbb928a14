package dev.pulseledger.support;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import javax.net.ssl.SSLContext;

/**
 * The operator console over plain HTTP, as a browser without script would use it: one session
 * cookie (or none), forms posted URL-encoded, redirects not followed so tests see them.
 */
public final class ConsoleClient {
    public static final String COOKIE = "pl_console";
    public static final String SIGN_IN_COOKIE = "pl_signin";
    private static final Pattern CSRF = Pattern.compile("name=\"csrf\" value=\"([^\"]+)\"");
    private static final HttpClient CLIENT = HttpClient.newBuilder()
            .connectTimeout(Duration.ofSeconds(5))
            .followRedirects(HttpClient.Redirect.NEVER)
            .version(HttpClient.Version.HTTP_1_1)
            .build();

    private final String baseUrl;
    private final HttpClient client;
    private final Map<String, String> headers;
    private Optional<String> sessionId = Optional.empty();

    public ConsoleClient(String baseUrl) {
        this(baseUrl, CLIENT, Map.of());
    }

    private ConsoleClient(String baseUrl, HttpClient client, Map<String, String> headers) {
        this.baseUrl = baseUrl;
        this.client = client;
        this.headers = headers;
    }

    /** A browser that speaks HTTPS to {@code baseUrl}, trusting the certificates {@code tls} trusts. */
    public static ConsoleClient overHttps(String baseUrl, SSLContext tls) {
        HttpClient client = HttpClient.newBuilder()
                .connectTimeout(Duration.ofSeconds(5))
                .followRedirects(HttpClient.Redirect.NEVER)
                .version(HttpClient.Version.HTTP_1_1)
                .sslContext(tls)
                .build();
        return new ConsoleClient(baseUrl, client, Map.of());
    }

    /** A browser whose requests arrive with this header too, as a proxy in front would add it. */
    public ConsoleClient withHeader(String name, String value) {
        Map<String, String> more = new LinkedHashMap<>(headers);
        more.put(name, value);
        return new ConsoleClient(baseUrl, client, more);
    }

    /** Signs in with {@code key}; the reply is the sign-in POST's (303 on success). */
    public HttpResponse<String> signIn(String key) {
        return signInWith(Map.of("adminKey", key));
    }

    /** Signs in with an operator's email, password and TOTP or recovery code (empty: none). */
    public HttpResponse<String> signIn(String email, String password, String code) {
        return signInWith(Map.of("email", email, "password", password, "code", code));
    }

    /**
     * Posts the sign-in form as a browser does: it first loads the form, which sets the form's CSRF
     * cookie and puts the same token in the form.
     */
    private HttpResponse<String> signInWith(Map<String, String> fields) {
        HttpResponse<String> form = get("/console/sign-in");
        String formCookie = form.headers().allValues("Set-Cookie").stream()
                .filter(cookie -> cookie.startsWith(SIGN_IN_COOKIE + "="))
                .map(cookie -> cookie.substring(0, cookie.indexOf(';')))
                .findFirst()
                .orElseThrow(() -> new AssertionError("The sign-in form set no CSRF cookie"));
        Matcher token = CSRF.matcher(form.body());
        if (!token.find()) {
            throw new AssertionError("The sign-in form has no CSRF token");
        }
        Map<String, String> withToken = new LinkedHashMap<>(fields);
        withToken.put("csrf", token.group(1));
        HttpResponse<String> reply = send(request("/console/sign-in", Optional.of(formCookie))
                .header("Content-Type", "application/x-www-form-urlencoded")
                .POST(HttpRequest.BodyPublishers.ofString(formBody(withToken))));
        reply.headers()
                .firstValue("Set-Cookie")
                .filter(cookie -> cookie.startsWith(COOKIE + "="))
                .ifPresent(
                        cookie -> sessionId = Optional.of(cookie.substring(COOKIE.length() + 1, cookie.indexOf(';'))));
        return reply;
    }

    /** The same browser session, talking to another node. */
    public ConsoleClient at(String otherBaseUrl) {
        ConsoleClient other = new ConsoleClient(otherBaseUrl, client, headers);
        other.sessionId = sessionId;
        return other;
    }

    public HttpResponse<String> get(String path) {
        return send(request(path).GET());
    }

    /** The CSRF token in the page at {@code path}. */
    public String csrfToken(String path) {
        Matcher matcher = CSRF.matcher(get(path).body());
        if (!matcher.find()) {
            throw new AssertionError(path + " has no CSRF token");
        }
        return matcher.group(1);
    }

    /** Posts a form as it is given: add {@code csrf} to it to act as the page would. */
    public HttpResponse<String> post(String path, Map<String, String> fields) {
        return send(request(path)
                .header("Content-Type", "application/x-www-form-urlencoded")
                .POST(HttpRequest.BodyPublishers.ofString(formBody(fields))));
    }

    /** Posts a form with the CSRF token of the page at {@code pagePath}, as submitting that page does. */
    public HttpResponse<String> submit(String pagePath, String action, Map<String, String> fields) {
        Map<String, String> withToken = new LinkedHashMap<>(fields);
        withToken.put("csrf", csrfToken(pagePath));
        return post(action, withToken);
    }

    private static String formBody(Map<String, String> fields) {
        return fields.entrySet().stream()
                .map(e -> encode(e.getKey()) + "=" + encode(e.getValue()))
                .collect(Collectors.joining("&"));
    }

    private HttpRequest.Builder request(String path) {
        return request(path, Optional.empty());
    }

    private HttpRequest.Builder request(String path, Optional<String> extraCookie) {
        HttpRequest.Builder request =
                HttpRequest.newBuilder(URI.create(baseUrl + path)).timeout(Duration.ofSeconds(30));
        List<String> cookies = new ArrayList<>();
        sessionId.ifPresent(id -> cookies.add(COOKIE + "=" + id));
        extraCookie.ifPresent(cookies::add);
        if (!cookies.isEmpty()) {
            request.header("Cookie", String.join("; ", cookies));
        }
        headers.forEach(request::header);
        return request;
    }

    private HttpResponse<String> send(HttpRequest.Builder request) {
        try {
            return client.send(request.build(), HttpResponse.BodyHandlers.ofString());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    private static String encode(String text) {
        return URLEncoder.encode(text, StandardCharsets.UTF_8);
    }
}
