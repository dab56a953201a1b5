package org.gridcache.pool.fetch;

import io.netty.buffer.ByteBuf;
import io.netty.handler.codec.http.HttpResponseStatus;
import java.io.IOException;
import java.net.URI;
import java.nio.channels.FileChannel;
import java.util.Set;
import java.util.concurrent.atomic.AtomicReference;
import org.gridcache.common.checksum.ChecksumType;
import org.gridcache.common.checksum.Checksums;
import org.gridcache.pool.http.FetchException;
import org.gridcache.pool.origin.DownloadSink;
import org.gridcache.pool.origin.OriginFetcher;
import org.gridcache.pool.store.ReplicaWriter;
import org.gridcache.pool.store.Sidecar;
import org.gridcache.pool.store.StoreKey;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One fetch from an origin in flight, shared by every client waiting for that file (coalescing). Received bytes go
 * to the part file behind the clients ({@link WriteBehind}); listeners ({@link FillListeners}: the movers of waiting
 * clients) send what has arrived so far, from memory or from the part file (cut-through); checksums and verification
 * are {@link FillChecksums}'. A hit only once the whole file is on disk, fsync'ed, of the size announced and expected.
 *
 * <p>Its life is one state machine ({@link State}, changed only by {@link Transitions}): CONNECTING until the origin
 * answers, STREAMING while bytes arrive, RECEIVED once the origin sent them all (a client joining now is a hit),
 * WRITTEN once they are all on disk (the disk writer that saw it claims the finish), VERIFYING while sizes and
 * checksums are checked, the file fsync'ed and committed, then COMPLETE; FAILED from any state before. Whether the
 * content was verified (the clients' last byte may go) is apart from it: a cheap compared checksum is verified on
 * receipt, while the disk still catches up.
 *
 * <p>One fetcher thread calls the {@link DownloadSink} methods, one disk-writer task at a time drains the window;
 * listeners read the volatile progress fields ({@code received} >= {@code written}) from their own event loops.
 * Locks, in the order they may be taken: the store's monitor ({@link Downloads}), then the part file's
 * ({@link WriteBehind}); {@link FillChecksums}, {@link MemoryWindow} and {@link WriteBehindBudget} each lock only
 * themselves. No lock is held while listeners are told.
 */
public final class Download implements DownloadSink {
    private static final Logger LOG = LoggerFactory.getLogger(Download.class);
    /** Unknown-size fetches reserve store space in steps of this much, not per network buffer. */
    private static final long RESERVATION_STEP = 8L << 20;

    /** Where a fill is in its life; see the class comment and {@link #canBecome}. */
    public enum State {
        CONNECTING, STREAMING, RECEIVED, WRITTEN, VERIFYING, COMPLETE, FAILED;

        /** The transition table: the next states this one may become. */
        boolean canBecome(State next) {
            return switch (this) {
                case CONNECTING -> next == STREAMING || next == FAILED;
                case STREAMING -> next == RECEIVED || next == FAILED;
                case RECEIVED -> next == WRITTEN || next == FAILED;
                case WRITTEN -> next == VERIFYING || next == FAILED;
                case VERIFYING -> next == COMPLETE || next == FAILED;
                case COMPLETE, FAILED -> false;
            };
        }

        boolean ended() {
            return this == COMPLETE || this == FAILED;
        }
    }

    /** Told of every change of state or progress; must not block (it runs on the fetcher's thread). */
    public interface Listener {
        void changed(Download download);
    }

    private final Downloads owner;
    private final String originUrl;
    private final URI origin;
    private final long ticketSize;
    private final long ticketMtime;
    private final long startNanos = System.nanoTime();
    private final Transitions transitions = new Transitions();
    private final FillListeners listeners = new FillListeners();
    private final FillChecksums fillChecksums;
    private final WriteBehind writer;
    /** Bytes received from the origin (in memory or on disk). */
    private volatile long received;
    private volatile long size = -1;
    private volatile long mtime = -1;
    private volatile String etag;
    /** The file's checksums once complete. */
    private volatile Checksums checksums;
    /** Why the fill failed: the first reason given, set before the state becomes FAILED. */
    private final AtomicReference<FetchException> failure = new AtomicReference<>();
    /** Where the bytes come from once chosen ("origin", "peer p1"); null while the pool still asks its peers. */
    private volatile String source;
    /** The store's write of this fetch: its room and its part file. */
    final ReplicaWriter replica;

    Download(Downloads owner, ReplicaWriter replica, String originUrl, URI origin, long ticketSize, long ticketMtime,
             WriteBehind.PartFile partFile, WriteBehindBudget budget, WriteQueue diskWriter, Set<ChecksumType> types) {
        this.owner = owner;
        this.replica = replica;
        this.originUrl = originUrl;
        this.origin = origin;
        this.ticketSize = ticketSize;
        this.ticketMtime = ticketMtime;
        this.fillChecksums = new FillChecksums(types);
        this.writer = new WriteBehind(this, partFile, fillChecksums, diskWriter, budget);
    }

    StoreKey key() {
        return replica.key();
    }

    public State state() {
        return transitions.current();
    }

    @Override
    public long received() {
        return received;
    }

    /**
     * True once the origin has sent every byte (the disk may still be catching up): a client joining now waits for
     * nothing from the origin, so it counts as a hit.
     */
    boolean receivedAll() {
        State now = state();
        return now.compareTo(State.RECEIVED) >= 0 && now != State.FAILED;
    }

    /** Bytes of the file's prefix on disk, readable from the part file. */
    public long written() {
        return writer.written();
    }

    /**
     * Up to {@code max} received bytes from {@code position} that are still in memory, with the caller's own
     * reference; null when they are not (already on disk, or not yet here).
     */
    public ByteBuf memorySlice(long position, long max) {
        return writer.slice(position, max);
    }

    /** The file's size once known (from the origin's Content-Length, or at completion), else -1. */
    public long size() {
        return size;
    }

    public long mtime() {
        return mtime;
    }

    public String etag() {
        return etag;
    }

    /** The complete file's checksums (computed while it filled); null before {@link State#COMPLETE}. */
    public Checksums checksums() {
        return checksums;
    }

    public FetchException failure() {
        return failure.get();
    }

    String source() {
        return source;
    }

    /** True when the bytes came from another pool rather than the origin. */
    public boolean fromPeer() {
        String s = source;
        return s != null && s.startsWith("peer");
    }

    /** The fetcher has chosen where the bytes come from: from now on peers may pull from this fetch. */
    public void from(String chosen) {
        source = chosen;
    }

    /** Adds a listener and tells it the current state at once, so a late joiner misses nothing. */
    public void addListener(Listener listener) {
        listeners.add(this, listener);
    }

    public void removeListener(Listener listener) {
        listeners.remove(listener);
    }

    /** True while the fetcher has yet to verify the content: movers hold the file's last byte back until then. */
    public boolean holdsLastByte() {
        return fillChecksums.holdsLastByte();
    }

    // --- DownloadSink, for the fetcher ---

    @Override
    public void begin(long contentLength, long originMtime, String originEtag) throws FetchException {
        if (contentLength >= 0 && ticketSize >= 0 && contentLength != ticketSize) {
            throw FetchException.badGateway("origin " + describe() + " announced " + contentLength
                    + " bytes but the ticket expects " + ticketSize + " (file changed at the origin?)");
        }
        if (contentLength >= 0) {
            owner.reserve(this, contentLength);
        }
        mtime = originMtime >= 0 ? originMtime : ticketMtime;
        etag = originEtag;
        size = contentLength;
        if (transitions.move(State.CONNECTING, State.STREAMING)) {
            listeners.tell(this);
        }
    }

    @Override
    public boolean write(ByteBuf data, Runnable resume) throws FetchException {
        int length = data.readableBytes();
        if (length == 0) {
            return true;
        }
        makeRoom(length);
        fillChecksums.received(data);
        long position = received;
        if (!writer.hold(position, data)) {
            return true; // failed meanwhile: the fetcher is being stopped
        }
        boolean more = writer.take(length, resume);
        received = position + length;
        writer.schedule();
        listeners.tell(this);
        return more;
    }

    @Override
    public long transferFrom(FileChannel source, long position, long count) throws IOException, FetchException {
        makeRoom(count);
        long n = writer.transferFrom(source, position, count);
        received += n;
        listeners.tell(this);
        return n;
    }

    @Override
    public boolean computes(ChecksumType type) {
        return fillChecksums.computes(type);
    }

    @Override
    public void originChecksums(Checksums fromOrigin) {
        fillChecksums.offered(fromOrigin);
    }

    @Override
    public void willVerify(ChecksumType type) {
        fillChecksums.willVerify(type);
    }

    /** As {@link #complete()}, running {@code check} on the part file before the commit. */
    @Override
    public void complete(DownloadSink.Verification check) {
        fillChecksums.verifyWith(check);
        complete();
    }

    /**
     * The origin sent everything: verifies what was computed on receipt (a verified fill's last byte then goes out while the disk
     * may still be catching up; a mismatch fails the fill at once), then finishes once the disk writer has caught up, on a disk
     * writer (the fetcher calls this on an event loop, which must not wait for an fsync or a checksum pass).
     */
    @Override
    public void complete() {
        long total = received;
        boolean whole = (size < 0 || total == size) && (ticketSize < 0 || total == ticketSize); // else finish says what is wrong
        try {
            if (state() != State.FAILED && fillChecksums.verifyOnReceipt(whole, describe())) {
                listeners.tell(this);
            }
        } catch (FetchException e) {
            fail(e);
            return;
        }
        if (!transitions.move(State.STREAMING, State.RECEIVED)) {
            return; // failed meanwhile
        }
        if (writer.caughtUp(received)) {
            writer.run(this::finish);
        } else {
            writer.schedule();
        }
    }

    private void makeRoom(long length) throws FetchException {
        long needed = received + length;
        if (size >= 0 && needed > size) {
            throw FetchException.badGateway("origin " + describe() + " sent more than the " + size + " bytes it announced");
        }
        if (size < 0 && needed > owner.reservedOf(this)) {
            try {
                owner.reserve(this, needed + RESERVATION_STEP);
            } catch (FetchException e) {
                owner.reserve(this, needed); // a small store may have room for the file but not for a whole step
            }
        }
    }

    // --- for the write-behind ---

    /** More of the file is on disk. */
    void progressed() {
        listeners.tell(this);
    }

    /** The pool's writers refuse work: it closes. */
    void shuttingDown() {
        fail(new FetchException(HttpResponseStatus.SERVICE_UNAVAILABLE, "pool is shutting down"));
    }

    /**
     * Checks the size and checksums, fsyncs and commits, once: on the writer that saw the last byte reach the disk
     * (the move RECEIVED to WRITTEN picks it). RECEIVED is read first: only then is {@code received} final.
     */
    void finish() {
        if (state() != State.RECEIVED || !writer.caughtUp(received) || !transitions.move(State.RECEIVED, State.WRITTEN)) {
            return;
        }
        long total = writer.written();
        if (size >= 0 && total != size) {
            fail(FetchException.badGateway("origin " + describe() + " sent " + total + " of " + size + " bytes"));
            return;
        }
        if (ticketSize >= 0 && total != ticketSize) {
            fail(FetchException.badGateway("origin " + describe() + " sent " + total + " bytes but the ticket expects " + ticketSize));
            return;
        }
        if (!transitions.move(State.WRITTEN, State.VERIFYING)) {
            return;
        }
        Checksums computed;
        try {
            FileChannel out = writer.out(); // an empty file has had no byte written: opened here
            boolean[] newlyVerified = new boolean[1];
            computed = fillChecksums.verifyWritten(out, total, describe(), newlyVerified);
            if (newlyVerified[0]) {
                listeners.tell(this); // the content is the origin's: the last byte need not wait for the fsync or the costly checksums
            }
            computed = fillChecksums.withCostly(computed, out, total);
            writer.close();
            owner.commit(this, new Sidecar(originUrl, total, mtime, etag, System.currentTimeMillis() / 1000, computed.toHex()));
        } catch (FetchException e) {
            fail(e);
            return;
        } catch (IOException | RuntimeException e) {
            commitFailed(e);
            return;
        }
        size = total;
        checksums = computed; // both before the state says COMPLETE, which publishes them
        if (transitions.move(State.VERIFYING, State.COMPLETE)) {
            LOG.debug("fetched {} bytes from {} in {} ms", total, describe(), (System.nanoTime() - startNanos) / 1_000_000);
            listeners.tell(this);
        }
    }

    private void commitFailed(Exception e) {
        if (state() == State.FAILED) {
            return; // abandoned meanwhile (pool closing): already reported
        }
        if (!(e instanceof IOException io && FetchException.isNoSpace(io))) { // a full disk is said once, by fail's line
            LOG.error("store: cannot commit {} from {}: {}", key(), describe(), e.toString());
        }
        fail(e instanceof IOException io ? FetchException.storeWrite("store the file", io)
                : new FetchException(HttpResponseStatus.INTERNAL_SERVER_ERROR, "pool cannot store the file: " + e.getMessage()));
    }

    @Override
    public void fail(FetchException reason) {
        if (state().ended()) {
            return;
        }
        failure.compareAndSet(null, reason); // before the state: who sees FAILED finds the reason
        if (!transitions.fail()) {
            return;
        }
        FetchException first = failure.get();
        LOG.warn("fetch from {} failed after {} bytes: {}", describe(), received, first.getMessage());
        if (first.isChecksumMismatch()) {
            owner.checksumMismatch();
        }
        writer.release();
        owner.abandon(this);
        listeners.tell(this);
    }

    /** Closes the part file; idempotent. */
    void closeQuietly() {
        writer.close();
    }

    private String describe() {
        return OriginFetcher.describe(origin);
    }
}
