package org.gridcache.pool.mover;

import io.netty.channel.ChannelFutureListener;
import io.netty.handler.codec.http.HttpResponse;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.LastHttpContent;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.util.List;
import java.util.concurrent.CompletionException;
import java.util.function.BiConsumer;
import org.gridcache.common.cluster.ActiveTransfer;
import org.gridcache.common.ticket.Ticket;
import org.gridcache.pool.fetch.BlockFetches;
import org.gridcache.pool.http.FetchException;
import org.gridcache.pool.origin.RangedReads;
import org.gridcache.pool.http.Exchange;
import org.gridcache.pool.http.Responses;
import org.gridcache.pool.store.PartialFile;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A Range (or several: a vector read) served from a partial file ({@link BlockFetches}): waits until every block it
 * touches is proven, fetching the missing ones (or joining their fetches), then sends the bytes zero-copy from the
 * blocks file, one range or multipart/byteranges as {@link HitMover} does. Nothing goes out before every block is
 * proven, so a failed block read is a clean error status (502 from the origin's failure, 507 without room) and the
 * connection stays usable. {@code X-Cache: HIT} ({@code Cache-Status: gridcache; hit}) when every block was already stored.
 */
public final class SparseTransfer {
    private static final Logger LOG = LoggerFactory.getLogger(SparseTransfer.class);

    /** Told once, on the event loop: (this, whether the connection may be reused, whether to serve it whole instead). */
    public interface Done {
        void sparseDone(SparseTransfer transfer, boolean reusable, boolean fallBackToWholeFile);
    }

    private final Exchange ex;
    private final Ticket ticket;
    private final List<ByteRange> ranges;
    private final PartialFile partial;
    private final FileChannel file;
    private final BlockFetches fetches;
    private final RangedReads reads;
    private final Movers movers;
    private final Done done;
    private boolean hit;
    private boolean aborted; // event loop only
    private boolean finished; // event loop only
    private volatile long sent; // written on the event loop, read by the pool's record
    private ActiveTransfers.Transfer progress;

    /** {@code file}: the partial file opened for reading, closed by this transfer; {@code partial} pinned, released by it. */
    public SparseTransfer(Exchange ex, Ticket ticket, List<ByteRange> ranges, PartialFile partial, FileChannel file,
                          BlockFetches fetches, RangedReads reads, Movers movers, Done done) {
        this.ex = ex;
        this.ticket = ticket;
        this.ranges = ranges;
        this.partial = partial;
        this.file = file;
        this.fetches = fetches;
        this.reads = reads;
        this.movers = movers;
        this.done = done;
    }

    /** The ranges of a Range header that a block read would serve (sorted, coalesced); empty when it is none. */
    public static List<ByteRange> ranges(String header, long size) {
        List<ByteRange> all = ByteRange.parseAll(header, size);
        return all.get(0).kind() == ByteRange.Kind.PARTIAL ? all : List.of();
    }

    /** The bytes the ranges ask for: the size of this transfer as the transfers list shows it. */
    private static long bytes(List<ByteRange> ranges) {
        return ranges.stream().mapToLong(ByteRange::length).sum();
    }

    public void start() {
        movers.started();
        progress = movers.transfers().begin(() -> hit ? ActiveTransfer.HIT : ActiveTransfer.MISS, ticket, ex.path, bytes(ranges),
                () -> sent);
        BlockFetches.Plan plan = fetches.ensure(partial, ticket, reads,
                ranges.stream().map(r -> new long[] {r.start(), r.end()}).toList());
        hit = !plan.fetched();
        plan.ready().whenComplete((ok, error) -> ex.ctx.executor().execute(() -> {
            if (error == null) {
                send();
            } else {
                fail(error instanceof CompletionException && error.getCause() != null ? error.getCause() : error);
            }
        }));
    }

    private void send() {
        if (aborted || finished) {
            return;
        }
        long size = partial.size();
        if (ranges.size() == 1) {
            ByteRange range = ranges.get(0);
            HttpResponse head = FileHeads.fileHead(ex, range, size, partial.mtime(), null, hit, hit ? CacheStatus.HIT : CacheStatus.BLOCKS);
            ex.ctx.write(head);
            ex.ctx.write(new SharedFileRegion(file, range.start(), range.length()));
            finishWith(range.length());
            return;
        }
        MultipartBody body = new MultipartBody(ranges, size);
        ex.ctx.write(FileHeads.multipartHead(ex, body, partial.mtime(), null, hit, hit ? CacheStatus.HIT : CacheStatus.BLOCKS));
        for (int i = 0; i < ranges.size(); i++) {
            ex.ctx.write(body.partHead(i));
            ex.ctx.write(new SharedFileRegion(file, ranges.get(i).start(), ranges.get(i).length()));
        }
        ex.ctx.write(body.closing());
        finishWith(body.dataBytes());
    }

    private void finishWith(long dataBytes) {
        ex.ctx.writeAndFlush(LastHttpContent.EMPTY_LAST_CONTENT).addListener((ChannelFutureListener) f -> {
            if (f.isSuccess()) {
                sent = dataBytes;
                movers.sent(dataBytes);
            }
            finish(f.isSuccess(), 206, false);
        });
    }

    private void fail(Throwable error) {
        if (aborted || finished) {
            return;
        }
        FetchException e = error instanceof FetchException fe ? fe
                : new FetchException(HttpResponseStatus.BAD_GATEWAY, "block read failed: " + error);
        if (e.isWholeInstead()) {
            LOG.info("{} {}: {}; serving it from a whole-file fetch", ex.method, ex.path, e.getMessage());
            finish(true, 0, true);
            return;
        }
        LOG.info("{} {} refused {}: {}", ex.method, ex.path, e.status().code(), e.getMessage());
        Responses.sendError(ex, e.status(), e.getMessage())
                .addListener((ChannelFutureListener) f -> finish(f.isSuccess(), e.status().code(), false));
    }

    /** The client went away (event loop): blocks being read go on into the store for the next reader. */
    public void abort() {
        aborted = true;
        finish(false, 0, false);
    }

    private void finish(boolean complete, int status, boolean fallBack) {
        if (finished) {
            return;
        }
        finished = true;
        try {
            file.close();
        } catch (IOException e) {
            LOG.debug("closing the blocks of {}: {}", ex.path, e.toString());
        }
        fetches.release(partial);
        movers.ended();
        if (progress != null) {
            progress.end();
        }
        if (!fallBack) {
            movers.finished(ex, hit, false, status, sent, hit ? 0 : sent, complete);
            LOG.info("{} {} {} {}(blocks) {} bytes {} ms {}{}", ex.method, ex.path, status, hit ? "HIT" : "MISS", sent,
                    ex.millis(), ex.client(), complete ? "" : " ABORTED");
        }
        done.sparseDone(this, complete && (status == 206 || fallBack), fallBack);
    }
}
