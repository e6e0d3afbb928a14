package dev.pulseledger.keys;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

class KeyHashSetTest {
    private final Random random = new Random(42);

    @Test
    void findsEveryAddedHashAfterTheTableHasGrownManyTimes() {
        KeyHashSet set = new KeyHashSet();
        List<String> added = randomHashes(20_000);
        added.forEach(set::add);

        assertThat(added).allMatch(set::contains);
        assertThat(set.size()).isEqualTo(20_000);
    }

    @Test
    void refusesHashesNeverAddedSaveForARareSharedPrefix() {
        KeyHashSet set = new KeyHashSet();
        randomHashes(20_000).forEach(set::add);

        // 20,000 stored 32-bit prefixes: a random hash shares one with odds of 20,000 / 2^32.
        long found = randomHashes(100_000).stream().filter(set::contains).count();

        assertThat(found).isLessThanOrEqualTo(2);
    }

    @Test
    void addingTheSameHashTwiceCountsItOnce() {
        KeyHashSet set = new KeyHashSet();
        String hash = randomHashes(1).getFirst();

        set.add(hash);
        set.add(hash);

        assertThat(set.size()).isEqualTo(1);
    }

    @Test
    void aHashWhosePrefixIsZeroIsStoredDespiteZeroMarkingEmptySlots() {
        KeyHashSet set = new KeyHashSet();
        String zeroPrefix = "00000000" + randomHashes(1).getFirst().substring(8);

        assertThat(set.contains(zeroPrefix)).isFalse();
        set.add(zeroPrefix);

        assertThat(set.contains(zeroPrefix)).isTrue();
    }

    private List<String> randomHashes(int count) {
        List<String> hashes = new ArrayList<>(count);
        byte[] bytes = new byte[32];
        for (int i = 0; i < count; i++) {
            random.nextBytes(bytes);
            hashes.add(HexFormat.of().formatHex(bytes));
        }
        return hashes;
    }
}
