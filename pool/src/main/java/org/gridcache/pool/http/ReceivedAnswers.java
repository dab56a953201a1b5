package org.gridcache.pool.http;

import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.codec.DecoderException;
import io.netty.handler.codec.http.HttpContent;
import io.netty.handler.codec.http.HttpObject;
import io.netty.handler.codec.http.HttpResponse;
import io.netty.handler.codec.http.HttpStatusClass;
import io.netty.handler.codec.http.LastHttpContent;
import io.netty.handler.timeout.IdleStateEvent;
import io.netty.util.ReferenceCountUtil;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.time.Duration;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * What a {@link ClientConnection} receives, handed from its event loop to its worker thread in order: answer heads,
 * body pieces, {@link #CONTINUE}, {@link #END}, a failure. The socket is read (auto-read off) only while fewer than
 * {@link ClientConnection#BUFFERED} bytes of body wait for the worker; once it took half of them, reading goes on.
 */
final class ReceivedAnswers extends ChannelInboundHandlerAdapter {
    static final Object CONTINUE = new Object();
    static final Object END = new Object();
    /** Waited on by the worker for the connection to take more of a body, or for the answer that makes it moot. */
    final Object writability = new Object();
    private final Channel channel;
    private final Duration idleTimeout;
    private final BlockingQueue<Object> inbound = new LinkedBlockingQueue<>();
    private final AtomicLong buffered = new AtomicLong();
    /** Set when a final answer's head arrived: a body still going out is not wanted any more. */
    private volatile boolean answered;
    private volatile boolean closed;
    /** Reading stopped for the worker to catch up. */
    private volatile boolean paused;
    /** On the event loop: the codec is passing on an interim answer (1xx) and its empty end. */
    private boolean interim;

    ReceivedAnswers(Channel channel, Duration idleTimeout) {
        this.channel = channel;
        this.idleTimeout = idleTimeout;
    }

    /** The connection failed: every later call of the worker's fails with {@code cause}. */
    record Failed(Throwable cause) {
        IOException asIo() {
            if (cause instanceof IOException io) {
                return io;
            }
            Throwable c = cause instanceof DecoderException && cause.getCause() != null ? cause.getCause() : cause;
            return new IOException(c.getMessage() == null ? c.getClass().getSimpleName() : c.getMessage(), cause);
        }
    }

    /** A new request: its answer is still to come. */
    void expectAnswer() {
        answered = false;
    }

    boolean answered() {
        return answered;
    }

    /** The next thing received, waiting for it; a failure stays for the calls after. */
    Object take() throws IOException {
        try {
            return sticky(inbound.take());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new InterruptedIOException("interrupted");
        }
    }

    /** As {@link #take}, waiting at most {@code nanos}; null when nothing came. */
    Object poll(long nanos) throws IOException {
        try {
            return sticky(inbound.poll(Math.max(0, nanos), TimeUnit.NANOSECONDS));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new InterruptedIOException("interrupted");
        }
    }

    private Object sticky(Object next) {
        if (next instanceof Failed) {
            inbound.add(next);
        }
        return next;
    }

    /** The worker took {@code bytes} of a body: reading goes on once half the buffer is free. */
    void taken(int bytes) {
        long left = buffered.addAndGet(-bytes);
        if (paused && left < ClientConnection.BUFFERED / 2) {
            channel.eventLoop().execute(() -> {
                if (paused && buffered.get() < ClientConnection.BUFFERED) {
                    paused = false;
                    channel.read();
                }
            });
        }
    }

    /** The worker gave up the connection: what it received and will not read is released. */
    void closing() {
        closed = true;
        dropPieces();
        wakeWriter();
    }

    long bufferedBytes() {
        return buffered.get();
    }

    boolean paused() {
        return paused;
    }

    boolean isClosed() {
        return closed;
    }

    void failed(Throwable cause) {
        inbound.add(new Failed(cause));
        wakeWriter();
    }

    private void dropPieces() {
        inbound.removeIf(o -> {
            if (o instanceof ByteBuf b) {
                b.release();
                return true;
            }
            return false;
        });
    }

    private void wakeWriter() {
        synchronized (writability) {
            writability.notifyAll();
        }
    }

    @Override
    public void channelActive(ChannelHandlerContext ctx) {
        ctx.read(); // TLS's handshake, then the answers
        ctx.fireChannelActive();
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        if (closed) {
            ReferenceCountUtil.release(msg);
            return;
        }
        if (msg instanceof HttpObject o && o.decoderResult().isFailure()) {
            ReferenceCountUtil.release(msg);
            failed(new IOException("a malformed answer: " + new Failed(o.decoderResult().cause()).asIo().getMessage()));
            ctx.close();
            return;
        }
        if (msg instanceof HttpResponse head) {
            interim = head.status().codeClass() == HttpStatusClass.INFORMATIONAL;
            if (!interim) {
                answered = true;
                wakeWriter();
            }
            if (!interim || head.status().code() == 100) {
                inbound.add(interim ? CONTINUE : head);
            }
        }
        if (msg instanceof HttpContent content) {
            ByteBuf data = content.content();
            if (!interim && data.isReadable()) {
                buffered.addAndGet(data.readableBytes());
                inbound.add(data); // the worker releases it
            } else {
                data.release();
            }
            if (content instanceof LastHttpContent) {
                if (!interim) {
                    inbound.add(END);
                }
                interim = false;
            }
        }
    }

    @Override
    public void channelReadComplete(ChannelHandlerContext ctx) {
        paused = true; // first: a worker that takes bytes from now on sees it and wakes this loop
        if (buffered.get() < ClientConnection.BUFFERED) {
            paused = false;
            ctx.read();
        }
    }

    @Override
    public void channelWritabilityChanged(ChannelHandlerContext ctx) {
        wakeWriter();
        ctx.fireChannelWritabilityChanged();
    }

    @Override
    public void userEventTriggered(ChannelHandlerContext ctx, Object evt) {
        if (evt instanceof IdleStateEvent) {
            failed(new IOException("nothing read nor written for " + idleTimeout.toSeconds() + " s"));
            ctx.close();
        }
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        failed(cause);
        ctx.close();
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
        failed(new IOException(closed ? "closed" : "the server closed the connection"));
        if (closed) {
            dropPieces(); // what the codec passed on while closing
        }
    }
}
