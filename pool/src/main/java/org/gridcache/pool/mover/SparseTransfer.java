package org.gridcache.pool.mover;

import io.netty.channel.ChannelFutureListener;
import io.netty.handler.codec.http.LastHttpContent;
import java.nio.channels.FileChannel;
import java.util.List;
import org.gridcache.common.ticket.Ticket;
import org.gridcache.pool.fetch.BlockFetches;
import org.gridcache.pool.http.Exchange;
import org.gridcache.pool.http.FetchException;
import org.gridcache.pool.origin.RangedReads;
import org.gridcache.pool.store.PartialFile;

/**
 * A Range (or several: a vector read) served from a partial file ({@link BlockFetches}): waits until every block it
 * touches is proven, fetching the missing ones (or joining their fetches), then sends the bytes zero-copy from the
 * blocks file, one range or multipart/byteranges as {@link HitMover} does. Nothing goes out before every block is
 * proven, so a failed block read is a clean error status (502 from the origin's failure, 507 without room) and the
 * connection stays usable. {@code X-Cache: HIT} ({@code Cache-Status: gridcache; hit}) when every block was already stored.
 */
public final class SparseTransfer extends BlockRead {
    private final List<ByteRange> ranges;

    /** {@code file}: the partial file opened for reading, closed by this transfer; {@code partial} pinned, released by it. */
    public SparseTransfer(Exchange ex, Ticket ticket, List<ByteRange> ranges, PartialFile partial, FileChannel file,
                          BlockFetches fetches, RangedReads reads, Movers movers, Done done) {
        super(ex, ticket, partial, file, fetches, reads, movers, done);
        this.ranges = ranges;
    }

    /** The ranges of a Range header that a block read would serve (sorted, coalesced); empty when it is none. */
    public static List<ByteRange> ranges(String header, long size) {
        List<ByteRange> all = ByteRange.parseAll(header, size);
        return all.get(0).kind() == ByteRange.Kind.PARTIAL ? all : List.of();
    }

    /** Starts it, listed as a transfer of the bytes the ranges ask for. */
    public void start() {
        start(ranges.stream().mapToLong(ByteRange::length).sum());
    }

    @Override
    protected void begin() {
        BlockFetches.Plan plan = fetches.ensure(partial, ticket, reads,
                ranges.stream().map(r -> new long[] {r.start(), r.end()}).toList());
        hit = !plan.fetched();
        onEventLoop(plan, this::send);
    }

    private void send() {
        if (finished) {
            return;
        }
        long size = partial.size();
        String cacheStatus = hit ? CacheStatus.HIT : CacheStatus.BLOCKS;
        if (ranges.size() == 1) {
            ByteRange range = ranges.get(0);
            ex.ctx.write(FileHeads.fileHead(ex, range, size, partial.mtime(), null, hit, cacheStatus));
            ex.ctx.write(new SharedFileRegion(file, range.start(), range.length()));
            finishWith(range.length());
            return;
        }
        MultipartBody body = new MultipartBody(ranges, size);
        ex.ctx.write(FileHeads.multipartHead(ex, body, partial.mtime(), null, hit, cacheStatus));
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

    @Override
    protected void fail(Throwable error) {
        if (finished) {
            return;
        }
        FetchException e = asFetchException(error);
        refuse(e, e.isWholeInstead());
    }
}
