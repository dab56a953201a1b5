package org.gridcache.pool;

import io.netty.channel.ChannelFutureListener;
import io.netty.handler.codec.http.HttpResponse;
import io.netty.handler.codec.http.LastHttpContent;

/** Sends a complete stored file: one zero-copy region for the whole range. */
final class HitMover extends Mover {
    private final Downloads.Hit hit;

    HitMover(Exchange ex, Downloads.Hit hit, Store store, Movers movers, Done done) {
        super(ex, hit, store, movers, done);
        this.hit = hit;
    }

    @Override
    protected boolean hit() {
        return true;
    }

    @Override
    void start() {
        StoreEntry entry = hit.entry();
        ByteRange range = ByteRange.parse(ex.range, entry.size);
        if (range.kind() == ByteRange.Kind.UNSATISFIABLE) {
            refuseRange(entry.size);
            return;
        }
        HttpResponse head = Responses.fileHead(ex, range, entry.size, entry.mtime, entry.etag(), true);
        status(head.status());
        ex.ctx.write(head);
        long length = range.length();
        if (!ex.head && length > 0) {
            // SharedFileRegion: the mover, not the region, closes the file (also when the client aborts)
            ex.ctx.write(new SharedFileRegion(hit.file(), range.start(), length));
        }
        ex.ctx.writeAndFlush(LastHttpContent.EMPTY_LAST_CONTENT).addListener((ChannelFutureListener) f -> {
            if (f.isSuccess() && !ex.head) {
                sent(length);
            }
            finish(f.isSuccess());
        });
    }
}
