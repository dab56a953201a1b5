package org.gridcache.pool.mover;

import io.netty.channel.ChannelFutureListener;
import io.netty.handler.codec.http.HttpResponse;
import io.netty.handler.codec.http.LastHttpContent;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import org.gridcache.common.checksum.Checksums;
import org.gridcache.pool.fetch.Download;
import org.gridcache.pool.fetch.Downloads;
import org.gridcache.pool.http.FetchException;
import org.gridcache.pool.http.Exchange;
import org.gridcache.pool.http.Responses;
import org.gridcache.pool.store.ChecksumsOnDemand;
import org.gridcache.pool.store.Store;
import org.gridcache.pool.store.StoreEntry;

/**
 * Sends a file while its fetch is still filling it (cut-through): the head goes out as soon as the origin's
 * status and size are known, then the bytes as they arrive: straight from the fetch's memory window while it holds
 * them (not yet on disk), else zero-copy from the part
 * file. One batch is in flight at a time, so a slow client holds back only itself and nothing piles up in memory
 * beyond the pool's write-behind budget. If the origin fails after the head went out, the connection is closed:
 * the client sees fewer bytes than Content-Length promised, never a short response that looks complete.
 *
 * <p>Several ranges are one multipart/byteranges answer whose parts go out in file order, each as soon as its bytes
 * are there. An origin that announces no size is waited for; the file is then sent like a hit (still marked MISS,
 * since this client waited for the origin).
 */
public final class CutThroughMover extends Mover implements Download.Listener {
    /**
     * Upper bound of one region while the file fills, so a fast origin does not make one client's write unboundedly
     * long; once every byte the client wants is on disk the rest goes as one region, as a hit's does (a client that
     * joins a fill whose checksums are still being computed is served at a hit's rate).
     */
    private static final long MAX_REGION = 16L << 20;
    /** Upper bound of the memory slices written before one flush. */
    private static final long MAX_MEMORY_BATCH = 1L << 20;

    private final Download download;
    /** Joined a fetch that had already received everything: no origin wait, so a hit (see Download#receivedAll). */
    private final boolean hit;
    /** Joined a fetch another client started (RFC 9211's {@code collapsed}). */
    private final boolean collapsed;
    private final boolean refreshesStale;
    private final Store store;
    private final ChecksumsOnDemand checksumsOnDemand;
    private final AtomicBoolean pumpScheduled = new AtomicBoolean();
    /** The checksums for the head of a client that asked for some; null until known. */
    private Checksums digests;
    private boolean digestsPending;
    private boolean headSent;
    private boolean writing;
    private long position;
    private long end;
    /** Several ranges: their layout, and the part being sent; null for one range or the whole file. */
    private MultipartBody parts;
    private int part;

    public CutThroughMover(Exchange ex, Downloads.Joined joined, Store store, Movers movers,
                           ChecksumsOnDemand checksumsOnDemand, Done done) {
        super(ex, joined, store, movers, done);
        this.download = joined.download();
        this.hit = joined.receivedAll();
        this.collapsed = joined.collapsed();
        this.refreshesStale = joined.refreshesStale();
        this.store = store;
        this.checksumsOnDemand = checksumsOnDemand;
    }

    @Override
    protected boolean hit() {
        return hit;
    }

    @Override
    public void start() {
        download.addListener(this);
    }

    /** Runs on the fetcher's thread: hand over to the client's event loop, once per burst of changes. */
    @Override
    public void changed(Download d) {
        if (pumpScheduled.compareAndSet(false, true)) {
            onEventLoop(() -> {
                pumpScheduled.set(false);
                pump();
            });
        }
    }

    @Override
    public void resume() {
        pump();
    }

    private void pump() {
        if (finished() || writing) {
            return;
        }
        Download.State state = download.state(); // read first: once FAILED is seen, written() is final and memory gone
        if (!headSent) {
            sendHead(state);
            return;
        }
        if (position >= end && parts != null && !ex.head && part + 1 < parts.ranges.size()) {
            part++;
            ex.ctx.write(parts.partHead(part));
            position = parts.ranges.get(part).start();
            end = parts.ranges.get(part).end() + 1;
        }
        if (position >= end) {
            writing = true;
            if (parts != null && !ex.head) {
                ex.ctx.write(parts.closing());
            }
            ex.ctx.writeAndFlush(LastHttpContent.EMPTY_LAST_CONTENT).addListener((ChannelFutureListener) f -> finish(f.isSuccess()));
            return;
        }
        if (!ex.ctx.channel().isWritable()) {
            return; // resume() pumps again when the client has drained
        }
        long sendable = end;
        if (state != Download.State.COMPLETE && download.holdsLastByte() && end == download.size() && end > 0) {
            sendable = end - 1; // the file's last byte waits for its verification: a mismatch aborts this client too
        }
        long onDisk = Math.min(download.written(), sendable);
        if (position < Math.min(download.received(), sendable) && sendFromMemory(sendable)) {
            return; // in memory: not written yet
        } else if (position < onDisk) {
            sendRegion(onDisk == sendable ? onDisk - position : Math.min(onDisk - position, MAX_REGION));
        } else if (state == Download.State.FAILED) {
            ex.ctx.close(); // Content-Length was promised: closing early is how the client learns of the failure
            finish(false);
        }
        // else: wait; the fetch tells us when more bytes arrive or reach the disk
    }

    /**
     * Writes the received bytes from {@code position} that are still in memory, up to a batch, with one flush;
     * false when none are (they reached the disk meanwhile: the writer's notification pumps again).
     */
    private boolean sendFromMemory(long sendable) {
        long limit = Math.min(Math.min(download.received(), sendable), position + MAX_MEMORY_BATCH);
        long next = position;
        io.netty.buffer.ByteBuf last = null;
        while (next < limit) {
            io.netty.buffer.ByteBuf slice = download.memorySlice(next, limit - next);
            if (slice == null) {
                break;
            }
            if (last != null) {
                ex.ctx.write(last, ex.ctx.voidPromise());
            }
            last = slice;
            next += slice.readableBytes();
        }
        if (last == null) {
            return false;
        }
        long count = next - position;
        writing = true;
        ex.ctx.writeAndFlush(last).addListener((ChannelFutureListener) f -> afterWrite(f.isSuccess(), count));
        return true;
    }

    private void afterWrite(boolean success, long count) {
        writing = false;
        if (!success) {
            finish(false);
            return;
        }
        position += count;
        sent(count);
        pump();
    }

    /** Known once the head goes out: the fetch has chosen its source (a peer or the origin) by then. */
    private String cacheStatus() {
        return hit ? CacheStatus.HIT : CacheStatus.fetched(refreshesStale, collapsed, download.fromPeer());
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
        if (!ex.digests.isEmpty() && state != Download.State.COMPLETE) {
            return; // a client that wants the file's checksum in the head waits for the whole file (computed as it fills)
        }
        if (!ex.digests.isEmpty() && digests == null) {
            awaitDigests();
            return;
        }
        List<ByteRange> ranges = ByteRange.parseAll(ex.range, size);
        ByteRange range = ranges.get(0);
        if (range.kind() == ByteRange.Kind.UNSATISFIABLE) {
            refuseRange(size);
            return;
        }
        HttpResponse head;
        if (ranges.size() > 1) {
            parts = new MultipartBody(ranges, size);
            head = FileHeads.multipartHead(ex, parts, download.mtime(), download.etag(), hit, cacheStatus());
        } else {
            head = FileHeads.fileHead(ex, range, size, download.mtime(), download.etag(), hit, cacheStatus());
        }
        Responses.withDigests(head, ex.digests, digests);
        status(head.status());
        headSent = true;
        position = range.start();
        end = ex.head ? position : range.end() + 1;
        ex.ctx.write(head);
        if (parts != null && !ex.head) {
            ex.ctx.write(parts.partHead(0));
        }
        ex.ctx.flush();
        pump();
    }

    /**
     * The complete file's checksums that the client asked for: those the fill computed, and those it did not, computed
     * now from the stored copy ({@link ChecksumsOnDemand}); pumps again once they are known.
     */
    private void awaitDigests() {
        if (digestsPending) {
            return;
        }
        Checksums known = download.checksums();
        StoreEntry copy = ex.digests.answeredBy(known) ? null : store.lookup(source.key());
        if (copy == null) { // all known, or the copy is gone already (a write notice): what the fill computed
            digests = known;
            pump();
            return;
        }
        digestsPending = true;
        checksumsOnDemand.of(source.key(), copy, ex.digests.types()).whenComplete((computed, failure) -> onEventLoop(() -> {
            digestsPending = false;
            digests = failure == null && !computed.isEmpty() ? computed : known;
            pump();
        }));
    }

    private void sendRegion(long count) {
        writing = true;
        ex.ctx.writeAndFlush(new SharedFileRegion(source.file(), position, count))
                .addListener((ChannelFutureListener) f -> afterWrite(f.isSuccess(), count));
    }

    @Override
    protected void released() {
        download.removeListener(this);
    }
}
