package dev.pulseledger.support;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.function.IntFunction;

/** Runs tasks on threads of their own, all released at the same moment, so that they race. */
public final class Simultaneously {
    private Simultaneously() {}

    /** Starts task 0 … count-1 together; each future holds one task's result, in order. */
    public static <T> List<CompletableFuture<T>> start(int count, IntFunction<T> task) {
        ExecutorService pool = Executors.newFixedThreadPool(count);
        CountDownLatch go = new CountDownLatch(1);
        List<CompletableFuture<T>> results = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            int index = i;
            results.add(CompletableFuture.supplyAsync(
                    () -> {
                        awaitQuietly(go);
                        return task.apply(index);
                    },
                    pool));
        }
        go.countDown();
        CompletableFuture<Void> unused = CompletableFuture.allOf(results.toArray(CompletableFuture[]::new))
                .whenComplete((done, error) -> pool.shutdown());
        return results;
    }

    /** Runs the tasks together and returns their results in order; the first failure is thrown. */
    public static <T> List<T> run(int count, IntFunction<T> task) {
        return start(count, task).stream().map(CompletableFuture::join).toList();
    }

    private static void awaitQuietly(CountDownLatch go) {
        try {
            go.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
