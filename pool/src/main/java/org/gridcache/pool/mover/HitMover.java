package org.gridcache.pool.mover;

import io.netty.channel.ChannelFutureListener;
import io.netty.handler.codec.http.HttpResponse;
import io.netty.handler.codec.http.LastHttpContent;
import java.util.List;
import org.gridcache.common.checksum.Checksums;
import org.gridcache.pool.fetch.Downloads;
import org.gridcache.pool.http.Exchange;
import org.gridcache.pool.http.Responses;
import org.gridcache.pool.store.ChecksumsOnDemand;
import org.gridcache.pool.store.Store;
import org.gridcache.pool.store.StoreEntry;

/**
 * Sends a complete stored file: one zero-copy region for the whole file or the range asked for, or, for several
 * ranges (a vector read), a multipart/byteranges body of one zero-copy region per range (RFC 9110 §14.6). A digest
 * the client asks for comes from the file's sidecar, or is computed first when the sidecar lacks it
 * ({@link ChecksumsOnDemand}: the head waits for it).
 */
public final class HitMover extends Mover {
    private final Downloads.Hit hit;
    private final Store store;
    private final ChecksumsOnDemand checksumsOnDemand;

    public HitMover(Exchange ex, Downloads.Hit hit, Store store, Movers movers, ChecksumsOnDemand checksumsOnDemand,
                    Done done) {
        super(ex, hit, store, movers, done);
        this.hit = hit;
        this.store = store;
        this.checksumsOnDemand = checksumsOnDemand;
    }

    @Override
    protected boolean hit() {
        return true;
    }

    @Override
    public void start() {
        if (ex.digests.isEmpty()) {
            send(Checksums.NONE);
            return;
        }
        Checksums known = store.checksums(hit.key()); // the sidecar: a small file, in the page cache
        if (ex.digests.answeredBy(known)) {
            send(known);
            return;
        }
        checksumsOnDemand.of(hit.key(), hit.entry(), ex.digests.types()).whenComplete((computed, failure) ->
                onEventLoop(() -> send(failure == null && !computed.isEmpty() ? computed : known)));
    }

    private void send(Checksums digests) {
        StoreEntry entry = hit.entry();
        List<ByteRange> ranges = ByteRange.parseAll(ex.range, entry.size());
        ByteRange range = ranges.get(0);
        if (range.kind() == ByteRange.Kind.UNSATISFIABLE) {
            refuseRange(entry.size());
            return;
        }
        if (ranges.size() > 1) {
            sendParts(entry, ranges, digests);
            return;
        }
        HttpResponse head = Responses.withDigests(FileHeads.fileHead(ex, range, entry.size(), entry.mtime(), entry.etag(), true, CacheStatus.HIT),
                ex.digests, digests);
        status(head.status());
        ex.ctx.write(head);
        long length = range.length();
        if (!ex.head && length > 0) {
            // SharedFileRegion: the mover, not the region, closes the file (also when the client aborts)
            ex.ctx.write(new SharedFileRegion(hit.file(), range.start(), length), counting(ex.ctx));
        }
        finishWith(length);
    }

    private void sendParts(StoreEntry entry, List<ByteRange> ranges, Checksums digests) {
        MultipartBody body = new MultipartBody(ranges, entry.size());
        HttpResponse head = Responses.withDigests(FileHeads.multipartHead(ex, body, entry.mtime(), entry.etag(), true, CacheStatus.HIT),
                ex.digests, digests);
        status(head.status());
        ex.ctx.write(head);
        if (!ex.head) {
            for (int i = 0; i < ranges.size(); i++) {
                ex.ctx.write(body.partHead(i));
                ex.ctx.write(new SharedFileRegion(hit.file(), ranges.get(i).start(), ranges.get(i).length()));
            }
            ex.ctx.write(body.closing());
        }
        finishWith(body.dataBytes());
    }

    private void finishWith(long dataBytes) {
        ex.ctx.writeAndFlush(LastHttpContent.EMPTY_LAST_CONTENT).addListener((ChannelFutureListener) f -> {
            if (f.isSuccess() && !ex.head) {
                sent(dataBytes);
            }
            finish(f.isSuccess());
        });
    }
}
