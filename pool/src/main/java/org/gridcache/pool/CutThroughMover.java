package org.gridcache.pool;

import io.netty.channel.ChannelFutureListener;
import io.netty.handler.codec.http.HttpResponse;
import io.netty.handler.codec.http.LastHttpContent;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Sends a file while its fetch is still filling it (cut-through): the head goes out as soon as the origin's
 * status and size are known, then every range [sent, written) of the part file as it grows. One region is in
 * flight at a time, so a slow client holds back only itself and nothing piles up in memory. If the origin fails
 * after the head went out, the connection is closed: the client sees fewer bytes than Content-Length promised,
 * never a short response that looks complete.
 *
 * <p>An origin that announces no size is waited for; the file is then sent like a hit (still marked MISS).
 */
final class CutThroughMover extends Mover implements Download.Listener {
    /** Upper bound of one region, so a fast origin does not make one client's write unboundedly long. */
    private static final long MAX_REGION = 16L << 20;

    private final Download download;
    private final AtomicBoolean pumpScheduled = new AtomicBoolean();
    private boolean headSent;
    private boolean writing;
    private long position;
    private long end;

    CutThroughMover(Exchange ex, Downloads.Joined joined, Store store, Movers movers, Done done) {
        super(ex, joined, store, movers, done);
        this.download = joined.download();
    }

    @Override
    protected boolean hit() {
        return false;
    }

    @Override
    void start() {
        download.addListener(this);
    }

    /** Runs on the fetcher's thread: hand over to the client's event loop, once per burst of changes. */
    @Override
    public void changed(Download d) {
        if (pumpScheduled.compareAndSet(false, true)) {
            try {
                ex.ctx.executor().execute(() -> {
                    pumpScheduled.set(false);
                    pump();
                });
            } catch (java.util.concurrent.RejectedExecutionException e) {
                // the pool is shutting down: the client's connection goes with it
            }
        }
    }

    @Override
    void resume() {
        pump();
    }

    private void pump() {
        if (finished() || writing) {
            return;
        }
        Download.State state = download.state(); // read before written(): once FAILED is seen, written() is final
        if (!headSent) {
            sendHead(state);
            return;
        }
        if (position >= end) {
            writing = true;
            ex.ctx.writeAndFlush(LastHttpContent.EMPTY_LAST_CONTENT).addListener((ChannelFutureListener) f -> finish(f.isSuccess()));
            return;
        }
        long available = Math.min(download.written(), end);
        if (available > position && ex.ctx.channel().isWritable()) {
            sendRegion(Math.min(available - position, MAX_REGION));
        } else if (state == Download.State.FAILED && available <= position) {
            ex.ctx.close(); // Content-Length was promised: closing early is how the client learns of the failure
            finish(false);
        }
    }

    private void sendHead(Download.State state) {
        if (state == Download.State.FAILED) {
            FetchException failure = download.failure();
            refuse(failure.status(), failure.getMessage());
            return;
        }
        long size = download.size();
        if (state == Download.State.CONNECTING || size < 0) {
            return; // wait for the origin's answer (or, with no Content-Length, for the whole file)
        }
        ByteRange range = ByteRange.parse(ex.range, size);
        if (range.kind() == ByteRange.Kind.UNSATISFIABLE) {
            refuseRange(size);
            return;
        }
        HttpResponse head = Responses.fileHead(ex, range, size, download.mtime(), download.etag(), false);
        status(head.status());
        headSent = true;
        position = range.start();
        end = ex.head ? position : range.end() + 1;
        ex.ctx.writeAndFlush(head);
        pump();
    }

    private void sendRegion(long count) {
        writing = true;
        ex.ctx.writeAndFlush(new SharedFileRegion(source.file(), position, count)).addListener((ChannelFutureListener) f -> {
            writing = false;
            if (!f.isSuccess()) {
                finish(false);
                return;
            }
            position += count;
            sent(count);
            pump();
        });
    }

    @Override
    protected void released() {
        download.removeListener(this);
    }
}
