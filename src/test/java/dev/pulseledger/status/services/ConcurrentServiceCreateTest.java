package dev.pulseledger.status.services;

import static org.assertj.core.api.Assertions.assertThat;

import dev.pulseledger.support.TestNode;
import dev.pulseledger.support.TestStore;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;

class ConcurrentServiceCreateTest {
    private static final int WRITERS = 16;

    @Test
    void concurrentPutsOfOneNewServiceOnTwoNodesCreateItOnceAndReplaceItOtherwise() throws Exception {
        String url = TestStore.POSTGRESQL.newDatabaseUrl();
        try (TestNode first = TestNode.start(url);
                TestNode second = TestNode.start(url);
                ExecutorService pool = Executors.newFixedThreadPool(WRITERS)) {
            CountDownLatch start = new CountDownLatch(1);
            List<Future<Integer>> statuses = new ArrayList<>();
            for (int i = 0; i < WRITERS; i++) {
                TestNode node = i % 2 == 0 ? first : second;
                String status = i % 3 == 0 ? "major_outage" : "operational";
                statuses.add(pool.submit(() -> {
                    start.await();
                    return node.admin()
                            .put("/admin/services/search", Map.of("name", "Search", "status", status))
                            .status();
                }));
            }
            start.countDown();
            List<Integer> answers = new ArrayList<>();
            for (Future<Integer> status : statuses) {
                answers.add(status.get());
            }
            assertThat(answers).containsOnly(200, 201);
            assertThat(answers).filteredOn(s -> s == 201).hasSize(1);
            assertThat(first.admin().get("/admin/services/search").status()).isEqualTo(200);
        }
    }
}
