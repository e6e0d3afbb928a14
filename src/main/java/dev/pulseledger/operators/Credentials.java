package dev.pulseledger.operators;

import dev.pulseledger.keys.Secrets;
import dev.pulseledger.store.Database;
import java.security.SecureRandom;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * Console sign-in by email and password (and a TOTP or recovery code when the operator has TOTP), with
 * its limits. Every refusal looks the same, whether the email is unknown, the password wrong, the code
 * missing or the operator disabled, and takes about the same time: an unknown email still pays for one
 * Argon2 check.
 */
public final class Credentials {
    public static final int RECOVERY_CODES = 10;
    private static final int RECOVERY_CODE_CHARS = 10;
    private static final char[] RECOVERY_ALPHABET = "abcdefghjkmnpqrstuvwxyz23456789".toCharArray();
    private static final SecureRandom RANDOM = new SecureRandom();

    /** How a sign-in ended. */
    public sealed interface SignIn {
        record SignedIn(String operatorId) implements SignIn {}

        /** Wrong email, password or code, or a disabled operator: one answer for all. */
        record Refused() implements SignIn {}

        /** Too many failures from this address, or on this account for now: try after {@code retryAfter}. */
        record Held(Duration retryAfter) implements SignIn {}
    }

    /** A new TOTP secret, the URI for an authenticator app, and recovery codes: shown once. */
    public record Enrolment(String secret, String uri, List<String> recoveryCodes) {}

    private final CredentialStore store;
    private final SignInLimiter limiter;
    private final Clock clock;

    public Credentials(Database database, SignInLimiter limiter, Clock clock) {
        this.store = new CredentialStore(database);
        this.limiter = limiter;
        this.clock = clock;
    }

    /** Sets a password that {@link Passwords#problem} accepted; false when no operator has this id. */
    public boolean setPassword(String operatorId, String password) {
        return store.setPassword(operatorId, Passwords.hash(password));
    }

    /** Gives the operator a new TOTP secret and recovery codes, replacing any before; empty if no such operator. */
    public Optional<Enrolment> enrolTotp(String operatorId, String label) {
        String secret = Totp.newSecret();
        List<String> codes = new ArrayList<>();
        for (int i = 0; i < RECOVERY_CODES; i++) {
            codes.add(recoveryCode());
        }
        List<String> hashes = codes.stream().map(Credentials::codeHash).toList();
        if (!store.setTotp(operatorId, Optional.of(secret), hashes)) {
            return Optional.empty();
        }
        return Optional.of(new Enrolment(secret, Totp.uri(secret, "Pulseledger", label), List.copyOf(codes)));
    }

    /** Removes TOTP and the recovery codes; false when no operator has this id. */
    public boolean removeTotp(String operatorId) {
        return store.setTotp(operatorId, Optional.empty(), List.of());
    }

    /**
     * Checks a sign-in from {@code address}. The address's limit is checked first; the account's
     * delay holds the attempt unless it carries a valid TOTP code (the device proves more than a guess).
     */
    public SignIn signIn(String address, String emailTyped, String password, String code) {
        String email = emailTyped.strip().toLowerCase(Locale.ROOT);
        Optional<Duration> addressWait = limiter.addressWait(address);
        if (addressWait.isPresent()) {
            return new SignIn.Held(addressWait.get());
        }
        Optional<CredentialStore.SignInRecord> record = store.byEmail(email);
        Optional<Duration> accountWait = limiter.accountWait(email);
        if (accountWait.isPresent() && !validTotpWithoutUsing(record, code)) {
            return new SignIn.Held(accountWait.get());
        }
        if (record.isEmpty() || record.get().passwordHash().isEmpty()) {
            Passwords.checkDecoy(password);
            return refused(address, email);
        }
        CredentialStore.SignInRecord operator = record.get();
        if (!Passwords.matches(password, operator.passwordHash().get()) || operator.disabled()) {
            return refused(address, email);
        }
        if (operator.totpSecret().isPresent() && !secondFactor(operator, code.strip())) {
            return refused(address, email);
        }
        limiter.succeeded(email);
        return new SignIn.SignedIn(operator.operatorId());
    }

    private SignIn refused(String address, String email) {
        limiter.failed(address, email);
        return new SignIn.Refused();
    }

    /** A TOTP code of a step not used before (it is then used up), or an unused recovery code. */
    private boolean secondFactor(CredentialStore.SignInRecord operator, String code) {
        String secret = operator.totpSecret().orElseThrow();
        OptionalLong step = Totp.matchingStep(secret, code, clock.instant());
        if (step.isPresent()) {
            return store.acceptStep(operator.operatorId(), step.getAsLong());
        }
        return code.length() == RECOVERY_CODE_CHARS
                && store.useRecoveryCode(operator.operatorId(), codeHash(code), clock.millis());
    }

    private boolean validTotpWithoutUsing(Optional<CredentialStore.SignInRecord> record, String code) {
        return record.flatMap(CredentialStore.SignInRecord::totpSecret)
                .map(secret ->
                        Totp.matchingStep(secret, code.strip(), clock.instant()).isPresent())
                .orElse(false);
    }

    private static String recoveryCode() {
        StringBuilder code = new StringBuilder(RECOVERY_CODE_CHARS);
        for (int i = 0; i < RECOVERY_CODE_CHARS; i++) {
            code.append(RECOVERY_ALPHABET[RANDOM.nextInt(RECOVERY_ALPHABET.length)]);
        }
        return code.toString();
    }

    private static String codeHash(String code) {
        return Secrets.sha256Hex("recovery:" + code.toLowerCase(Locale.ROOT));
    }
}
