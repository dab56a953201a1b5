package org.gridcache.pool;

import io.netty.buffer.ByteBuf;
import java.io.IOException;
import java.net.URI;
import java.nio.channels.FileChannel;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One fetch from an origin in flight, shared by every client waiting for that file (coalescing). Bytes go
 * straight into the store's part file; listeners (the movers of waiting clients) hear of every change and send
 * what has been written so far (cut-through). Becomes a hit only when complete with the size the origin announced
 * and the ticket expected.
 *
 * <p>One fetcher thread calls the {@link DownloadSink} methods; listeners read the volatile progress fields from
 * their own event loops.
 */
final class Download implements DownloadSink {
    private static final Logger LOG = LoggerFactory.getLogger(Download.class);
    /** Unknown-size fetches reserve store space in steps of this much, not per network buffer. */
    private static final long RESERVATION_STEP = 8L << 20;

    enum State { CONNECTING, STREAMING, COMPLETE, FAILED }

    /** Told of every change of state or progress; must not block (it runs on the fetcher's thread). */
    interface Listener {
        void changed(Download download);
    }

    private final Downloads owner;
    private final StoreKey key;
    private final String originUrl;
    private final URI origin;
    private final long ticketSize;
    private final long ticketMtime;
    private final FileChannel out;
    private final List<Listener> listeners = new CopyOnWriteArrayList<>();
    private final long startNanos = System.nanoTime();

    private volatile State state = State.CONNECTING;
    private volatile long written;
    private volatile long size = -1;
    private volatile long mtime = -1;
    private volatile String etag;
    private volatile FetchException failure;
    /** Store space held for this fetch; guarded by the store's monitor. */
    long reserved;

    Download(Downloads owner, StoreKey key, String originUrl, URI origin, long ticketSize, long ticketMtime, FileChannel out) {
        this.owner = owner;
        this.key = key;
        this.originUrl = originUrl;
        this.origin = origin;
        this.ticketSize = ticketSize;
        this.ticketMtime = ticketMtime;
        this.out = out;
    }

    // --- for listeners ---

    StoreKey key() {
        return key;
    }

    State state() {
        return state;
    }

    @Override
    public long written() {
        return written;
    }

    /** The file's size once known (from the origin's Content-Length, or at completion), else -1. */
    long size() {
        return size;
    }

    long mtime() {
        return mtime;
    }

    String etag() {
        return etag;
    }

    FetchException failure() {
        return failure;
    }

    /** Adds a listener and tells it the current state at once, so a late joiner misses nothing. */
    void addListener(Listener listener) {
        listeners.add(listener);
        listener.changed(this);
    }

    void removeListener(Listener listener) {
        listeners.remove(listener);
    }

    // --- DownloadSink, for the fetcher ---

    @Override
    public void begin(long contentLength, long originMtime, String originEtag) throws FetchException {
        if (contentLength >= 0 && ticketSize >= 0 && contentLength != ticketSize) {
            throw FetchException.badGateway("origin " + OriginFetcher.describe(origin) + " announced " + contentLength
                    + " bytes but the ticket expects " + ticketSize + " (file changed at the origin?)");
        }
        if (contentLength >= 0) {
            owner.reserve(this, contentLength);
        }
        mtime = originMtime >= 0 ? originMtime : ticketMtime;
        etag = originEtag;
        size = contentLength;
        state = State.STREAMING;
        notifyListeners();
    }

    @Override
    public void write(ByteBuf data) throws IOException, FetchException {
        int length = data.readableBytes();
        makeRoom(length);
        int index = data.readerIndex();
        long position = written;
        int done = 0;
        while (done < length) {
            done += data.getBytes(index + done, out, position + done, length - done);
        }
        advance(length);
    }

    @Override
    public long transferFrom(FileChannel source, long position, long count) throws IOException, FetchException {
        makeRoom(count);
        out.position(written);
        long n = source.transferTo(position, count, out);
        advance(n);
        return n;
    }

    private void makeRoom(long length) throws FetchException {
        long needed = written + length;
        if (size >= 0 && needed > size) {
            throw FetchException.badGateway("origin " + OriginFetcher.describe(origin) + " sent more than the " + size + " bytes it announced");
        }
        if (size < 0 && needed > reservedSnapshot()) {
            try {
                owner.reserve(this, needed + RESERVATION_STEP);
            } catch (FetchException e) {
                owner.reserve(this, needed); // a small store may have room for the file but not for a whole step
            }
        }
    }

    private long reservedSnapshot() {
        return owner.reservedOf(this);
    }

    private void advance(long n) {
        written += n; // single writer: the fetcher
        notifyListeners();
    }

    @Override
    public void complete() {
        long total = written;
        if (size >= 0 && total != size) {
            fail(FetchException.badGateway("origin " + OriginFetcher.describe(origin) + " sent " + total + " of " + size + " bytes"));
            return;
        }
        if (ticketSize >= 0 && total != ticketSize) {
            fail(FetchException.badGateway("origin " + OriginFetcher.describe(origin) + " sent " + total
                    + " bytes but the ticket expects " + ticketSize));
            return;
        }
        try {
            out.force(true);
            out.close();
            owner.commit(this, new Sidecar(originUrl, total, mtime, etag, System.currentTimeMillis() / 1000));
        } catch (IOException | RuntimeException e) {
            if (state == State.FAILED) {
                return; // abandoned meanwhile (pool closing): already reported
            }
            LOG.error("store: cannot commit {} from {}: {}", key, OriginFetcher.describe(origin), e.toString());
            fail(new FetchException(io.netty.handler.codec.http.HttpResponseStatus.INTERNAL_SERVER_ERROR,
                    "pool cannot store the file: " + e.getMessage()));
            return;
        }
        synchronized (this) {
            if (state == State.FAILED) {
                return;
            }
            size = total;
            state = State.COMPLETE;
        }
        LOG.debug("fetched {} bytes from {} in {} ms", total, OriginFetcher.describe(origin), (System.nanoTime() - startNanos) / 1_000_000);
        notifyListeners();
    }

    @Override
    public void fail(FetchException reason) {
        synchronized (this) {
            if (state == State.COMPLETE || state == State.FAILED) {
                return;
            }
            failure = reason;
            state = State.FAILED;
        }
        LOG.warn("fetch from {} failed after {} bytes: {}", OriginFetcher.describe(origin), written, reason.getMessage());
        owner.abandon(this);
        notifyListeners();
    }

    /** Closes the part file; idempotent. */
    void closeQuietly() {
        try {
            out.close();
        } catch (IOException e) {
            LOG.debug("closing part file of {}: {}", key, e.toString());
        }
    }

    private void notifyListeners() {
        for (Listener l : listeners) {
            l.changed(this);
        }
    }
}
