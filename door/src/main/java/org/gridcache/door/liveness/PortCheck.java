package org.gridcache.door.liveness;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.channels.AsynchronousChannelGroup;
import java.nio.channels.AsynchronousCloseException;
import java.nio.channels.AsynchronousSocketChannel;
import java.nio.channels.CompletionHandler;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * Whether a pool's host still takes TCP connections on the pool's port: a bare connect, nothing sent. It tells a host
 * that is gone (no answer to the SYN) or a port nobody listens on (refused) from a pool that is only slow to answer
 * its pings — a busy or starved JVM's kernel still completes the handshake at once, from its listen backlog. Connects
 * run on one shared thread (an {@link AsynchronousChannelGroup} of one), timed out by the caller's timer.
 */
final class PortCheck implements AutoCloseable {
    private final AsynchronousChannelGroup group;
    private final ScheduledExecutorService timer;

    PortCheck(ScheduledExecutorService timer) throws IOException {
        this.timer = timer;
        this.group = AsynchronousChannelGroup.withFixedThreadPool(1, r -> {
            Thread t = new Thread(r, "door-pool-port-check");
            t.setDaemon(true);
            return t;
        });
    }

    /**
     * Connects to the host and port of {@code url}; {@code done} gets null when the connection was made, else why
     * not, once, within about {@code timeoutMillis}.
     */
    void check(String url, long timeoutMillis, Consumer<String> done) {
        InetSocketAddress address;
        AsynchronousSocketChannel channel;
        try {
            URI uri = URI.create(url);
            int port = uri.getPort() >= 0 ? uri.getPort() : "https".equals(uri.getScheme()) ? 443 : 80;
            address = new InetSocketAddress(uri.getHost(), port);
            if (address.isUnresolved()) {
                done.accept("unknown host");
                return;
            }
            channel = AsynchronousSocketChannel.open(group);
        } catch (IOException | IllegalArgumentException e) {
            done.accept(Pings.describe(e));
            return;
        }
        ScheduledFuture<?> timeout;
        try {
            timeout = timer.schedule(() -> closeQuietly(channel), timeoutMillis, TimeUnit.MILLISECONDS);
        } catch (RejectedExecutionException e) {
            closeQuietly(channel); // the door is closing
            return;
        }
        channel.connect(address, null, new CompletionHandler<Void, Void>() {
            @Override
            public void completed(Void result, Void attachment) {
                timeout.cancel(false);
                closeQuietly(channel);
                done.accept(null);
            }

            @Override
            public void failed(Throwable failure, Void attachment) {
                timeout.cancel(false);
                closeQuietly(channel);
                done.accept(failure instanceof AsynchronousCloseException
                        ? "no connection within " + timeoutMillis + " ms" : Pings.describe(failure));
            }
        });
    }

    private static void closeQuietly(AsynchronousSocketChannel channel) {
        try {
            channel.close();
        } catch (IOException e) {
            // nothing to keep
        }
    }

    @Override
    public void close() {
        try {
            group.shutdownNow();
        } catch (IOException e) {
            // its thread ends with the JVM
        }
    }
}
