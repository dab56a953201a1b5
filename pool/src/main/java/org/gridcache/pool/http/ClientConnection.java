package org.gridcache.pool.http;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelOption;
import io.netty.channel.WriteBufferWaterMark;
import io.netty.handler.codec.http.DefaultHttpContent;
import io.netty.handler.codec.http.HttpClientCodec;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http.HttpResponse;
import io.netty.handler.codec.http.HttpUtil;
import io.netty.handler.codec.http.LastHttpContent;
import io.netty.handler.timeout.IdleStateHandler;
import java.io.IOException;
import java.io.InputStream;
import java.io.InterruptedIOException;
import java.time.Duration;
import java.util.concurrent.TimeUnit;

/**
 * One HTTP/1.1 connection of the pool's client ({@link PoolClient#open}) for a worker thread, whose calls block:
 * one request at a time; a request's body goes out as the connection takes it ({@link #write} waits while more than
 * the high watermark waits to be sent); an answer's body is read from the socket only as the worker takes it. At most
 * {@link #BUFFERED} bytes of it wait here ({@link ReceivedAnswers}), then reading stops until the worker caught up,
 * so a server faster than the worker cannot fill the pool's memory. A connection with nothing read nor written for
 * its idle timeout fails and closes; so does one the worker abandons mid-answer ({@link #close}).
 */
public final class ClientConnection implements AutoCloseable {
    /** Answer bytes received and not yet taken by the worker, above which reading stops. */
    static final int BUFFERED = 4 << 20;
    private static final WriteBufferWaterMark SENDING = new WriteBufferWaterMark(512 << 10, 2 << 20);

    private final Channel channel;
    private final ReceivedAnswers received;
    // the worker's
    private ByteBuf piece;
    private HttpResponse early;
    private boolean requestSent;
    private boolean bodyEnded;
    private boolean keepAlive;

    private ClientConnection(Channel channel, Duration idleTimeout) {
        this.channel = channel;
        this.received = new ReceivedAnswers(channel, idleTimeout);
    }

    /** Sets up a new channel's pipeline after TLS: the codec, the idle timeout and the hand-over to the worker. */
    static ClientConnection install(Channel ch, Duration idleTimeout) {
        ClientConnection connection = new ClientConnection(ch, idleTimeout);
        ch.config().setAutoRead(false);
        ch.config().setOption(ChannelOption.WRITE_BUFFER_WATER_MARK, SENDING);
        ch.pipeline().addLast("codec", new HttpClientCodec(4096, 16384, 256 << 10))
                .addLast("idle", new IdleStateHandler(true, 0, 0, idleTimeout.toMillis(), TimeUnit.MILLISECONDS))
                .addLast("worker", connection.received);
        return connection;
    }

    /** Buffers for a request's body. */
    public ByteBufAllocator alloc() {
        return channel.alloc();
    }

    /** Sends a request without a body. */
    public void send(HttpRequest head) {
        begin(head);
        channel.writeAndFlush(LastHttpContent.EMPTY_LAST_CONTENT).addListener(failOnError());
        requestSent = true;
    }

    /** Writes a request's head; its body follows with {@link #write} and {@link #end}. */
    public void begin(HttpRequest head) {
        early = null;
        bodyEnded = false;
        requestSent = false;
        received.expectAnswer();
        HttpUtil.setKeepAlive(head, true);
        channel.write(head).addListener(failOnError());
    }

    /**
     * Sends the head written so far and waits up to {@code wait} for the server's word on a request that expects
     * {@code 100 Continue}: true when it said continue or nothing, false when it answered (that answer is
     * {@link #answer}'s).
     */
    public boolean awaitContinue(Duration wait) throws IOException {
        channel.flush();
        Object next = received.poll(wait.toNanos());
        if (next == null || next == ReceivedAnswers.CONTINUE) {
            return true;
        }
        if (next instanceof HttpResponse response) {
            early = response;
            return false;
        }
        throw failure(next);
    }

    /**
     * Sends {@code chunk} of the body once the connection takes more (the chunk is released either way); false when
     * the server answered meanwhile, so the rest of the body is not wanted.
     */
    public boolean write(ByteBuf chunk) throws IOException {
        try {
            synchronized (received.writability) {
                while (channel.isActive() && !channel.isWritable() && !received.answered()) {
                    received.writability.wait(1000);
                }
            }
        } catch (InterruptedException e) {
            chunk.release();
            Thread.currentThread().interrupt();
            throw new InterruptedIOException("interrupted");
        }
        if (received.answered()) {
            chunk.release();
            return false;
        }
        if (!channel.isActive()) {
            chunk.release();
            throw new IOException(received.isClosed() ? "closed" : "the server closed the connection");
        }
        channel.writeAndFlush(new DefaultHttpContent(chunk)).addListener(failOnError());
        return true;
    }

    /** The body is complete. */
    public void end() {
        channel.writeAndFlush(LastHttpContent.EMPTY_LAST_CONTENT).addListener(failOnError());
        requestSent = true;
    }

    /** Waits for the answer's head (interim answers skipped); its body is then read with {@link #body}. */
    public HttpResponse answer() throws IOException {
        channel.flush();
        HttpResponse head = early;
        early = null;
        while (head == null) {
            Object next = received.take();
            if (next instanceof HttpResponse response) {
                head = response;
            } else if (next != ReceivedAnswers.CONTINUE) {
                throw failure(next);
            }
        }
        keepAlive = HttpUtil.isKeepAlive(head);
        bodyEnded = false;
        return head;
    }

    /** The answer's body, read as it comes; closing it before its end closes the connection. */
    public InputStream body() {
        return new Body();
    }

    /**
     * Reads and drops the rest of the answer's body when it holds at most {@code most} more bytes; else, or when it
     * breaks off, closes the connection (a large error page, or a redirect's body, is not worth reading).
     */
    public void skip(long most) {
        long skipped = 0;
        byte[] scratch = new byte[8192];
        int n;
        try {
            while (skipped <= most && (n = read(scratch, 0, scratch.length)) >= 0) {
                skipped += n;
            }
        } catch (IOException e) {
            // the head was the answer; the connection is not used again
        }
        if (!bodyEnded) {
            close();
        }
    }

    /** Whether the next request may go on this connection: the last exchange completed and both sides keep it open. */
    public boolean reusable() {
        return requestSent && bodyEnded && keepAlive && !received.isClosed() && channel.isActive();
    }

    /** Bytes of answers received and not yet taken by the worker. */
    long bufferedBytes() {
        return received.bufferedBytes();
    }

    /** Whether reading stopped until the worker takes more. */
    boolean readingPaused() {
        return received.paused();
    }

    /** Breaks off whatever is going on and closes; may be called from any thread. */
    @Override
    public void close() {
        received.closing();
        synchronized (this) {
            if (piece != null) {
                piece.release();
                piece = null;
            }
        }
        channel.close();
    }

    /** Up to {@code length} bytes of the answer's body; -1 at its end. */
    private int read(byte[] into, int offset, int length) throws IOException {
        if (bodyEnded) {
            return -1;
        }
        while (true) {
            synchronized (this) {
                if (received.isClosed()) {
                    throw new IOException("closed");
                }
                if (piece != null) {
                    int n = Math.min(length, piece.readableBytes());
                    piece.readBytes(into, offset, n);
                    if (!piece.isReadable()) {
                        piece.release();
                        piece = null;
                    }
                    received.taken(n);
                    return n;
                }
            }
            Object next = received.take();
            if (next == ReceivedAnswers.END) {
                bodyEnded = true;
                return -1;
            }
            if (!(next instanceof ByteBuf buf)) {
                throw failure(next);
            }
            synchronized (this) {
                if (received.isClosed()) {
                    buf.release();
                    throw new IOException("closed");
                }
                piece = buf;
            }
        }
    }

    private static IOException failure(Object next) {
        if (next instanceof ReceivedAnswers.Failed failed) {
            return failed.asIo();
        }
        return new IOException("an answer out of order"); // the codec delivers heads, bodies and ends in turn
    }

    private ChannelFutureListener failOnError() {
        return f -> {
            if (!f.isSuccess()) {
                received.failed(f.cause());
                f.channel().close();
            }
        };
    }

    /** The answer's body as a stream, for the worker. */
    private final class Body extends InputStream {
        @Override
        public int read(byte[] b, int off, int len) throws IOException {
            return len == 0 ? 0 : ClientConnection.this.read(b, off, len);
        }

        @Override
        public int read() throws IOException {
            byte[] one = new byte[1];
            return read(one, 0, 1) < 0 ? -1 : one[0] & 0xff;
        }

        @Override
        public void close() {
            if (!bodyEnded) {
                ClientConnection.this.close();
            }
        }
    }
}
