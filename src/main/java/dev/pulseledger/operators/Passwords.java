package dev.pulseledger.operators;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.Optional;
import org.bouncycastle.crypto.generators.Argon2BytesGenerator;
import org.bouncycastle.crypto.params.Argon2Parameters;

/**
 * Console passwords, hashed with Argon2id (Bouncy Castle) at OWASP's recommended cost and stored as a
 * PHC string ({@code $argon2id$v=19$m=…,t=…,p=…$salt$hash}), so the cost can rise later without
 * invalidating stored hashes. A password is never logged, stored or shown.
 */
public final class Passwords {
    public static final int MIN_LENGTH = 12;
    /** Characters; a long password costs Argon2 nothing more, the limit bounds the request. */
    public static final int MAX_LENGTH = 128;

    private static final int MEMORY_KIB = 19 * 1024;
    private static final int ITERATIONS = 2;
    private static final int PARALLELISM = 1;
    private static final int SALT_BYTES = 16;
    private static final int HASH_BYTES = 32;
    private static final int MAX_STORED_MEMORY_KIB = 256 * 1024;
    private static final int MAX_STORED_ITERATIONS = 10;
    private static final Base64.Encoder B64 = Base64.getEncoder().withoutPadding();
    private static final Base64.Decoder B64_DECODE = Base64.getDecoder();
    private static final SecureRandom RANDOM = new SecureRandom();
    /** A hash checked when an email is unknown, so that both answers take the same time. */
    private static final String DECOY = hash("decoy password that matches nothing");

    private Passwords() {}

    /** Why a proposed password is refused, if it is: a sentence for the operator. */
    public static Optional<String> problem(String password) {
        int length = password.codePointCount(0, password.length());
        if (length < MIN_LENGTH) {
            return Optional.of("must be at least " + MIN_LENGTH + " characters");
        }
        if (length > MAX_LENGTH) {
            return Optional.of("must be at most " + MAX_LENGTH + " characters");
        }
        return Optional.empty();
    }

    public static String hash(String password) {
        byte[] salt = new byte[SALT_BYTES];
        RANDOM.nextBytes(salt);
        byte[] hash = argon2(password, salt, MEMORY_KIB, ITERATIONS, PARALLELISM);
        return "$argon2id$v=19$m=" + MEMORY_KIB + ",t=" + ITERATIONS + ",p=" + PARALLELISM + "$"
                + B64.encodeToString(salt) + "$" + B64.encodeToString(hash);
    }

    /** Whether {@code password} matches the stored PHC string; a malformed one matches nothing. */
    public static boolean matches(String password, String stored) {
        String[] parts = stored.split("\\$", -1);
        if (parts.length != 6 || !parts[1].equals("argon2id") || !parts[2].equals("v=19")) {
            return false;
        }
        try {
            String[] costs = parts[3].split(",", -1);
            int memory = Integer.parseInt(costs[0].substring(2));
            int iterations = Integer.parseInt(costs[1].substring(2));
            int parallelism = Integer.parseInt(costs[2].substring(2));
            if (memory > MAX_STORED_MEMORY_KIB || iterations > MAX_STORED_ITERATIONS || parallelism != 1) {
                return false;
            }
            byte[] salt = B64_DECODE.decode(parts[4]);
            byte[] expected = B64_DECODE.decode(parts[5]);
            return MessageDigest.isEqual(expected, argon2(password, salt, memory, iterations, parallelism));
        } catch (IllegalArgumentException | IndexOutOfBoundsException e) {
            return false;
        }
    }

    /** Spends the time of one check, for an email that names nobody. */
    public static void checkDecoy(String password) {
        matches(password, DECOY);
    }

    private static byte[] argon2(String password, byte[] salt, int memoryKib, int iterations, int parallelism) {
        Argon2Parameters parameters = new Argon2Parameters.Builder(Argon2Parameters.ARGON2_id)
                .withVersion(Argon2Parameters.ARGON2_VERSION_13)
                .withMemoryAsKB(memoryKib)
                .withIterations(iterations)
                .withParallelism(parallelism)
                .withSalt(salt)
                .build();
        Argon2BytesGenerator generator = new Argon2BytesGenerator();
        generator.init(parameters);
        byte[] hash = new byte[HASH_BYTES];
        generator.generateBytes(password.getBytes(StandardCharsets.UTF_8), hash);
        return hash;
    }
}
