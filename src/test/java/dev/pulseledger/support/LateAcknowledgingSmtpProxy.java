package dev.pulseledger.support;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.Arrays;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A loopback proxy in front of a test SMTP server that holds back the server's answer to the end of a
 * mail (the reply after the lone dot) for a while, for as many mails as asked: the server has kept the
 * mail, but a sender whose timeout is shorter hears nothing, gives up and sends it again. Everything
 * else passes through as it is.
 */
public final class LateAcknowledgingSmtpProxy implements AutoCloseable {
    private static final byte[] END_OF_DATA = {'\r', '\n', '.', '\r', '\n'};

    private final AtomicInteger lateLeft = new AtomicInteger();
    private final TcpProxy proxy;
    private volatile Duration delay = Duration.ZERO;

    private LateAcknowledgingSmtpProxy(int serverPort) throws IOException {
        this.proxy = TcpProxy.inFrontOfLoopback(serverPort, EndOfDataTap::new);
    }

    /** A proxy on a free loopback port in front of the SMTP server at {@code serverPort}. */
    public static LateAcknowledgingSmtpProxy start(int serverPort) {
        try {
            return new LateAcknowledgingSmtpProxy(serverPort);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    public String url() {
        return "smtp://127.0.0.1:" + proxy.port();
    }

    /** The server's answers to the end of the next {@code mails} mails reach the sender {@code late}. */
    public void acknowledgeLate(int mails, Duration late) {
        delay = late;
        lateLeft.set(mails);
    }

    @Override
    public void close() {
        try {
            proxy.close();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** One connection: notes where the sender ended a mail, and holds back the server's next answer. */
    private final class EndOfDataTap implements TcpProxy.Tap {
        private final byte[] tail = new byte[END_OF_DATA.length];
        private final AtomicBoolean endOfDataSent = new AtomicBoolean();

        @Override
        public void toServer(byte[] bytes, int length) {
            for (int i = 0; i < length; i++) {
                System.arraycopy(tail, 1, tail, 0, tail.length - 1);
                tail[tail.length - 1] = bytes[i];
                if (Arrays.equals(tail, END_OF_DATA)) {
                    endOfDataSent.set(true);
                }
            }
        }

        @Override
        public void toClient(byte[] bytes, int length) throws InterruptedException {
            if (endOfDataSent.getAndSet(false) && lateLeft.getAndDecrement() > 0) {
                Thread.sleep(delay);
            }
        }
    }
}
