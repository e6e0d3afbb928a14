package dev.pulseledger.support;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assertions;
import org.junit.jupiter.api.Assumptions;

/**
 * A small tmpfs mounted for one test, so a store can really run out of disk space. Mounting needs
 * root: without it a test is skipped on a workstation but fails under CI, which runs as root.
 */
public final class SmallDisk implements AutoCloseable {
    private final Path mountPoint;
    private final Path filler;

    private SmallDisk(Path mountPoint) {
        this.mountPoint = mountPoint;
        this.filler = mountPoint.resolve("filler");
    }

    public static SmallDisk mount(int megabytes) throws IOException, InterruptedException {
        Path mountPoint = Files.createTempDirectory("small-disk");
        boolean mounted = run("mount", "-t", "tmpfs", "-o", "size=" + megabytes + "m", "tmpfs", mountPoint.toString());
        if (!mounted) {
            String message = "mounting a tmpfs needs root (mount -t tmpfs)";
            if ("true".equals(System.getenv("CI"))) {
                Assertions.fail(message + "; CI runs as root");
            }
            Assumptions.abort(message);
        }
        return new SmallDisk(mountPoint);
    }

    public Path path() {
        return mountPoint;
    }

    /** Takes all free space but {@code bytes} with one file. */
    public void fillLeaving(long bytes) throws IOException {
        long toWrite = Files.getFileStore(mountPoint).getUsableSpace() - bytes;
        byte[] block = new byte[64 * 1024];
        try (OutputStream out = Files.newOutputStream(filler)) {
            for (long written = 0; written < toWrite; written += block.length) {
                out.write(block, 0, (int) Math.min(block.length, toWrite - written));
            }
        }
    }

    /** Gives the space taken by {@link #fillLeaving} back. */
    public void free() throws IOException {
        Files.deleteIfExists(filler);
    }

    @Override
    public void close() throws IOException, InterruptedException {
        run("umount", "-l", mountPoint.toString());
        Files.deleteIfExists(mountPoint);
    }

    private static boolean run(String... command) throws IOException, InterruptedException {
        Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        process.getInputStream().readAllBytes();
        return process.waitFor(30, TimeUnit.SECONDS) && process.exitValue() == 0;
    }
}
