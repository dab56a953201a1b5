package org.gridcache.pool.fetch;

import io.netty.buffer.ByteBuf;
import java.io.IOException;
import java.net.URI;
import java.nio.channels.FileChannel;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;
import java.nio.ByteBuffer;
import org.gridcache.common.checksum.ChecksumComputation;
import org.gridcache.common.checksum.ChecksumType;
import org.gridcache.common.checksum.Checksums;
import org.gridcache.pool.origin.OriginFetcher;
import org.gridcache.pool.store.Sidecar;
import org.gridcache.pool.store.StoreKey;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One fetch from an origin in flight, shared by every client waiting for that file (coalescing). Received bytes
 * are held in a {@link MemoryWindow} and written to the store's part file behind the clients by a disk-writer
 * thread (write-behind), so the clients of a miss are served at network speed even where the page cache is slow to
 * fill; listeners (the movers of waiting clients) hear of every change and send what has arrived so far, from
 * memory or from the part file (cut-through). A fill of a large file ({@code pool.direct-writes}) is written past the
 * page cache ({@link DirectPartWriter}), and its window then keeps the written bytes its slowest reader has yet to
 * send. Becomes a hit only when the whole file is on disk, fsync'ed, with the size the origin announced and the
 * ticket expected.
 *
 * <p>One fetcher thread calls the {@link DownloadSink} methods, one disk-writer task at a time drains the window;
 * listeners read the volatile progress fields ({@code received} >= {@code written}) from their own event loops.
 */
public final class Download implements DownloadSink {
    private static final Logger LOG = LoggerFactory.getLogger(Download.class);
    /** Unknown-size fetches reserve store space in steps of this much, not per network buffer. */
    private static final long RESERVATION_STEP = 8L << 20;

    public enum State { CONNECTING, STREAMING, COMPLETE, FAILED }

    /** Told of every change of state or progress; must not block (it runs on the fetcher's thread). */
    public interface Listener {
        void changed(Download download);

        /**
         * The first file position this listener still has to send from the fetch's memory, Long.MAX_VALUE when none:
         * a fill written past the page cache keeps its written bytes in memory for the slowest such reader.
         */
        default long readingFrom() {
            return Long.MAX_VALUE;
        }
    }

    private final Downloads owner;
    private final StoreKey key;
    private final String originUrl;
    private final URI origin;
    private final long ticketSize;
    private final long ticketMtime;
    /**
     * Opens the part file for writing. It is opened only when bytes are written (on a disk writer, or on the file
     * origin's thread), not at the miss: a fetch whose commit waits for a disk writer holds no file descriptor, so a
     * backlog of commits (small files arriving faster than the disk syncs them) cannot exhaust the pool's descriptors.
     */
    interface PartFile {
        FileChannel open() throws IOException;

        /** The same file opened for writes past the page cache (O_DIRECT); null where the file system has none. */
        FileChannel openDirect() throws IOException;
    }

    private final PartFile partFile;
    /** The part file open for writing; null before the first byte; guarded by this. */
    private FileChannel out;
    private boolean closed;
    private final List<Listener> listeners = new CopyOnWriteArrayList<>();
    private final long startNanos = System.nanoTime();
    private final MemoryWindow window = new MemoryWindow();
    private final WriteBehindBudget budget;
    /** Bytes taken from the budget and not given back yet: received, not yet on disk (until the fetch ends). */
    private final java.util.concurrent.atomic.AtomicLong owed = new java.util.concurrent.atomic.AtomicLong();
    /** Written bytes the window keeps for readers behind the disk, pool-wide (see {@link #trimWindow}). */
    private final RetainedMemory retainedMemory;
    /** The smallest file written past the page cache ({@code pool.direct-writes} when the fill began). */
    private final long directWritesFrom;
    /** The writer past the page cache; null until the first write, and for fills through the page cache. */
    private volatile DirectPartWriter directWriter;
    private boolean directOpened;
    /** Set once bytes went to disk past the page cache: its readers must be sent them from memory. */
    private volatile boolean pastPageCache;
    /** File position up to which the disk writer has taken the received bytes (written, or in its stage). */
    private volatile long taken;
    /** This fill's part of {@link #retainedMemory}; guarded by {@code trimLock}. */
    private long retainedCounted;
    private final Object trimLock = new Object();
    private final FillWriterThreads diskWriter;
    private final AtomicBoolean writerActive = new AtomicBoolean();
    private final AtomicBoolean finishing = new AtomicBoolean();
    private volatile boolean completeRequested;
    /** Someone waits for this fill's commit rather than for its bytes: its writes skip the idle-class writers. */
    private volatile boolean expedited;
    private volatile DownloadSink.Verification verification;
    private volatile boolean verifying;
    /** Set once the origin's checksum agreed (or the verification passed): the clients' last byte goes out. */
    private volatile boolean verified;
    /** The types an origin's checksum will be compared on, announced before the first byte; copied on write. */
    private volatile java.util.Set<ChecksumType> compared = java.util.Set.of();
    /** The types {@code pool.checksums} names (when the fill began). */
    private final java.util.Set<ChecksumType> types;
    /**
     * The types fed in file order while the file fills, by whichever thread writes to disk (one at a time): those that
     * cost little (adler32 and crc32c are CPU intrinsics at GB/s) and those the origin's checksum will be compared on
     * (the comparison holds the clients' last byte, so it must need no pass over the file), less those computed on
     * receipt ({@link #onReceipt}). Chosen at the first byte ({@link #plan}), null before.
     */
    private ChecksumComputation computation;
    /** Set once {@link #plan} has chosen {@link #computation}, {@link #onReceipt} and {@link #afterwards}. */
    private volatile boolean planned;
    /**
     * The compared types that cost little (adler32, crc32c), fed as the bytes arrive by the fetcher (write,
     * transferFrom and complete: one call at a time, in order, as for any sink), so that a verified fill's last byte
     * waits for the origin's checksum alone, not also for the disk writer to catch up (a slow disk, or a burst of new
     * page-cache pages, lags the network by up to the write-behind window). Chosen by {@link #plan}; null when
     * nothing cheap is compared.
     */
    private ChecksumComputation onReceipt;
    /** What {@link #onReceipt} computed, once every byte arrived; added to the sidecar's set at the commit. */
    private volatile Checksums receivedChecksums;
    /**
     * The other, costly types (md5 and sha-256: a few hundred MB/s together, one core's worth at a cut-through
     * client's rate): computed from the part file after the last byte reached it and was verified, before the commit,
     * so that they take no CPU from the clients while the file fills and do not hold a verified fill's last byte;
     * null when there are none.
     */
    private ChecksumComputation afterwards;
    private volatile Checksums offered = Checksums.NONE;
    /** The file's checksums once complete. */
    private volatile Checksums checksums;

    private volatile State state = State.CONNECTING;
    /** Bytes received from the origin (in memory or on disk). */
    private volatile long received;
    /** Bytes of the file's prefix that are on disk. */
    private volatile long written;
    private volatile long size = -1;
    private volatile long mtime = -1;
    private volatile String etag;
    private volatile FetchException failure;
    /** Where the bytes come from once chosen ("origin", "peer p1"); null while the pool still asks its peers. */
    private volatile String source;
    /** Store space held for this fetch; read and changed only inside {@link FetchesInFlight}'s per-key compute. */
    long reserved;

    Download(Downloads owner, StoreKey key, String originUrl, URI origin, long ticketSize, long ticketMtime, PartFile partFile,
             WriteBehindBudget budget, RetainedMemory retainedMemory, long directWritesFrom, FillWriterThreads diskWriter,
             java.util.Set<ChecksumType> types) {
        this.owner = owner;
        this.retainedMemory = retainedMemory;
        this.directWritesFrom = directWritesFrom;
        this.types = java.util.Set.copyOf(types);
        this.budget = budget;
        this.diskWriter = diskWriter;
        this.key = key;
        this.originUrl = originUrl;
        this.origin = origin;
        this.ticketSize = ticketSize;
        this.ticketMtime = ticketMtime;
        this.partFile = partFile;
    }

    /**
     * A client waits for this fill to complete, not for its bytes (a third-party push of a miss sends the stored file):
     * the copy into the store is then on that client's path, so its writes go to the normal disk writers from now on.
     */
    public void expedite() {
        expedited = true;
    }

    /** The part file open for writing, opened now if it is not yet; fails once the fetch was abandoned. */
    private synchronized FileChannel out() throws IOException {
        if (closed) {
            throw new java.nio.channels.ClosedChannelException();
        }
        if (out == null) {
            out = partFile.open();
        }
        return out;
    }

    // --- for listeners ---

    StoreKey key() {
        return key;
    }

    public State state() {
        return state;
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
        return completeRequested && state != State.FAILED;
    }

    /** Bytes of the file's prefix on disk, readable from the part file. */
    public long written() {
        return written;
    }

    /**
     * Up to {@code max} received bytes from {@code position} that are still in memory, with the caller's own
     * reference; null when they are not (already on disk, or not yet here).
     */
    public io.netty.buffer.ByteBuf memorySlice(long position, long max) {
        return window.slice(position, max);
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
        return failure;
    }

    String source() {
        return source;
    }

    /** The fetcher has chosen where the bytes come from: from now on peers may pull from this fetch. */
    /** True when the bytes came from another pool rather than the origin. */
    public boolean fromPeer() {
        String s = source;
        return s != null && s.startsWith("peer");
    }

    public void from(String chosen) {
        source = chosen;
    }

    /** Adds a listener and tells it the current state at once, so a late joiner misses nothing. */
    public void addListener(Listener listener) {
        listeners.add(listener);
        listener.changed(this);
    }

    public void removeListener(Listener listener) {
        listeners.remove(listener);
        trimWindow();
    }

    /** A reader sent what it held from memory: the bytes every reader has passed can go. */
    public void readerMoved() {
        if (pastPageCache) {
            trimWindow();
        }
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
    public boolean write(ByteBuf data, Runnable resume) throws FetchException {
        int length = data.readableBytes();
        if (length == 0) {
            return true;
        }
        makeRoom(length);
        plan();
        if (onReceipt != null) {
            for (ByteBuffer b : data.nioBuffers(data.readerIndex(), length)) {
                onReceipt.update(b);
            }
        }
        long position = received;
        if (!window.add(position, data.retainedSlice())) {
            return true; // failed meanwhile: the fetcher is being stopped
        }
        owed.addAndGet(length);
        boolean more = budget.take(length, resume);
        received = position + length;
        scheduleWriter();
        notifyListeners();
        return more;
    }

    /** The file origin copies file to file in the kernel: nothing to hold in memory, so straight to disk. */
    @Override
    public long transferFrom(FileChannel source, long position, long count) throws IOException, FetchException {
        makeRoom(count);
        FileChannel out = out();
        out.position(written);
        long n;
        try {
            n = source.transferTo(position, count, out);
        } catch (IOException e) {
            if (FetchException.isNoSpace(e)) {
                throw FetchException.storeWrite("write the file", e); // the store's side, not the origin's
            }
            throw e;
        }
        digestBack(written, n);
        written += n;
        received += n;
        taken = written;
        notifyListeners();
        return n;
    }

    private void scheduleWriter() {
        if (writerActive.compareAndSet(false, true)) {
            try {
                diskWriter.execute(this::drain, expedited);
            } catch (java.util.concurrent.RejectedExecutionException e) {
                writerActive.set(false);
                fail(new FetchException(io.netty.handler.codec.http.HttpResponseStatus.SERVICE_UNAVAILABLE, "pool is shutting down"));
            }
        }
    }

    /** On a disk-writer thread: writes the received bytes in order, then finishes a completed fetch. */
    private void drain() {
        try {
            for (ByteBuf next; taken < received && (next = window.slice(taken, received - taken)) != null; ) {
                try {
                    write(taken, next);
                } finally {
                    next.release();
                }
                if (diskWriter.handOver(expedited)) {
                    break; // the rest is scheduled again below, on the normal writers
                }
            }
            DirectPartWriter direct = directWriter;
            if (completeRequested && taken == received && direct != null) {
                advance(direct.finish()); // the stage's last bytes, once the origin has sent them all
            }
        } catch (IOException e) {
            fail(FetchException.storeWrite("write the file", e));
        } finally {
            writerActive.set(false);
        }
        if (state != State.FAILED && (taken < received || (completeRequested && writtenBehind()))) {
            scheduleWriter(); // bytes added (or the fetch completed) after the loop's last look
        } else if (completeRequested) {
            finish();
        }
    }

    /** Writes {@code buf}, the bytes at {@code position}, past the page cache where it can, else through it. */
    private void write(long position, ByteBuf buf) throws IOException {
        int index = buf.readerIndex();
        int length = buf.readableBytes();
        plan();
        ByteBuffer[] pieces = buf.nioBuffers(index, length);
        for (ByteBuffer b : pieces) {
            computation.update(b.duplicate()); // in file order: one writer at a time takes the bytes in order
        }
        DirectPartWriter direct = directWriter();
        taken = position + length;
        if (direct != null) {
            long onDisk = written;
            for (ByteBuffer b : pieces) {
                onDisk = direct.append(b);
            }
            pastPageCache = direct.pastPageCache();
            if (onDisk > written) {
                advance(onDisk);
            }
            return;
        }
        int done = 0;
        FileChannel out = out();
        while (done < length) {
            done += buf.getBytes(index + done, out, position + done, length - done);
        }
        advance(position + length);
    }

    /** The fill's writer past the page cache, opened at the first write; null where that is off or refused. */
    private DirectPartWriter directWriter() throws IOException {
        if (!directOpened) {
            directOpened = true;
            FileChannel direct = null;
            long announced = size;
            if (announced >= 0 && announced >= directWritesFrom) {
                try {
                    direct = partFile.openDirect();
                } catch (IOException | UnsupportedOperationException e) {
                    DirectPartWriter.logRefusal(e);
                }
            }
            synchronized (this) {
                if (closed) {
                    if (direct != null) {
                        direct.close();
                    }
                    throw new java.nio.channels.ClosedChannelException();
                }
                directWriter = direct == null ? null : new DirectPartWriter(direct, this::out);
            }
        }
        return directWriter;
    }

    /** The file's prefix up to {@code position} is on disk: its budget goes back; the window lets go what it may. */
    private void advance(long position) {
        long grown = position - written;
        written = position;
        giveBack(grown);
        trimWindow();
        notifyListeners();
    }

    /** Gives back to the budget up to {@code bytes} of what this fetch still owes it. */
    private void giveBack(long bytes) {
        long cur;
        long given;
        do {
            cur = owed.get();
            given = Math.min(cur, bytes);
        } while (given > 0 && !owed.compareAndSet(cur, cur - given));
        if (given > 0) {
            budget.give(given);
        }
    }

    /**
     * Drops from the window the written bytes no reader needs any more. Through the page cache that is all of them
     * (readers send them from the part file). Past the page cache the window keeps them from the slowest reader on,
     * so that they are sent from memory rather than read back from the disk, while the pool's retained memory stays
     * within its bound; beyond it, this fill's readers read from the disk.
     */
    private void trimWindow() {
        synchronized (trimLock) {
            long floor = written;
            if (pastPageCache && state != State.FAILED) {
                for (Listener l : listeners) {
                    floor = Math.min(floor, l.readingFrom());
                }
            }
            window.trimBelow(floor);
            long mine = Math.max(0, written - window.start());
            if (retainedMemory.add(mine - retainedCounted)) {
                retainedCounted = mine;
                return;
            }
            retainedCounted = mine;
            window.trimBelow(written); // the pool holds too much: this fill's readers go to the disk
            mine = Math.max(0, written - window.start());
            retainedMemory.add(mine - retainedCounted);
            retainedCounted = mine;
        }
    }

    /** Bytes the kernel copied file to file never passed through memory: checksummed from the part file (page cache). */
    private void digestBack(long from, long length) throws IOException {
        plan();
        digestFromFile(computation, from, length);
        if (onReceipt != null) {
            digestFromFile(onReceipt, from, length);
        }
    }

    /**
     * Which types are computed as the file fills and which once it is complete; runs at the first byte written (the
     * fetcher has said by then whether it verifies: {@link #originChecksums} and {@link #willVerify} come first).
     */
    private void plan() {
        if (!planned) { // read per chunk by the fetcher and the disk writer: no lock once chosen
            planNow();
        }
    }

    private synchronized void planNow() {
        if (computation != null) {
            return;
        }
        java.util.Set<ChecksumType> inline = inlineTypes();
        java.util.Set<ChecksumType> costly = java.util.EnumSet.noneOf(ChecksumType.class);
        costly.addAll(types);
        costly.removeAll(inline);
        java.util.Set<ChecksumType> early = java.util.EnumSet.noneOf(ChecksumType.class);
        early.addAll(compared);
        early.removeIf(type -> !type.cheap());
        inline.removeAll(early);
        computation = new ChecksumComputation(inline);
        onReceipt = early.isEmpty() ? null : new ChecksumComputation(early);
        afterwards = costly.isEmpty() ? null : new ChecksumComputation(costly);
        planned = true; // after the three: a thread that reads it true sees them
    }

    /** The cheap types of {@code pool.checksums} and the types to be compared with the origin's. */
    private java.util.Set<ChecksumType> inlineTypes() {
        java.util.Set<ChecksumType> inline = java.util.EnumSet.noneOf(ChecksumType.class);
        for (ChecksumType type : types) {
            if (type.cheap()) {
                inline.add(type);
            }
        }
        inline.addAll(compared);
        return inline;
    }

    /** Feeds {@code into} with the part file's bytes from {@code from} (in the page cache: just written). */
    private void digestFromFile(ChecksumComputation into, long from, long length) throws IOException {
        if (into.update(out(), from, length) < length) {
            throw new IOException("part file shorter than what was copied into it");
        }
    }

    @Override
    public boolean computes(org.gridcache.common.checksum.ChecksumType type) {
        return inlineTypes().contains(type); // as plan chose, or will choose (an empty file: at the finish)
    }

    @Override
    public void originChecksums(Checksums fromOrigin) {
        offered = fromOrigin;
        if (!fromOrigin.isEmpty()) {
            compare(fromOrigin.types());
            verifying = true; // the clients' last byte waits for the comparison, so a mismatch fails them too
        }
    }

    private synchronized void compare(java.util.Set<ChecksumType> more) {
        if (computation != null) {
            return; // announced after the first byte: plan has chosen; computes() says what it covers
        }
        java.util.Set<ChecksumType> all = java.util.EnumSet.noneOf(ChecksumType.class);
        all.addAll(compared);
        all.addAll(more);
        compared = all;
    }

    private void makeRoom(long length) throws FetchException {
        long needed = received + length;
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

    @Override
    public void willVerify(ChecksumType type) {
        compare(java.util.Set.of(type));
        verifying = true;
    }

    /** True while the fetcher has yet to verify the content: movers hold the file's last byte back until then. */
    public boolean holdsLastByte() {
        return verifying && !verified;
    }

    /** As {@link #complete()}, running {@code check} on the part file before the commit. */
    @Override
    public void complete(DownloadSink.Verification check) {
        verification = check;
        complete();
    }

    /**
     * The origin sent everything: finish once the disk writer has caught up, on a disk writer (the fetcher calls
     * this on an event loop, which must not wait for an fsync or a checksum pass).
     */
    @Override
    public void complete() {
        verifyOnReceipt();
        completeRequested = true;
        if (taken == received && directWriter == null) {
            try {
                diskWriter.execute(this::finish, expedited);
            } catch (java.util.concurrent.RejectedExecutionException e) {
                fail(new FetchException(io.netty.handler.codec.http.HttpResponseStatus.SERVICE_UNAVAILABLE, "pool is shutting down"));
            }
        } else {
            scheduleWriter();
        }
    }

    /**
     * On the fetcher's thread, once every byte arrived: finishes what was computed on receipt and, when that covers
     * every type the origin's checksum is compared on, compares now. A verified fill's last byte then goes out while
     * the disk writer may still be catching up (the commit still waits for it, the fsync and the costly checksums); a
     * mismatch fails the fetch at once.
     */
    private void verifyOnReceipt() {
        plan(); // an empty file has had no first byte
        ChecksumComputation early = onReceipt;
        if (early == null || state == State.FAILED) {
            return;
        }
        Checksums got = early.finish();
        receivedChecksums = got;
        long total = received;
        boolean whole = (size < 0 || total == size) && (ticketSize < 0 || total == ticketSize); // else finish says what is wrong
        if (!verifying || verification != null || offered.isEmpty() || !got.types().containsAll(compared) || !whole) {
            return;
        }
        java.util.Set<ChecksumType> differ = got.disagreements(offered).keySet();
        if (!differ.isEmpty()) {
            fail(mismatch(differ, got));
            return;
        }
        verified = true;
        notifyListeners();
    }

    private FetchException mismatch(java.util.Set<ChecksumType> differ, Checksums computed) {
        return FetchException.checksumMismatch("checksum mismatch: origin " + OriginFetcher.describe(origin) + " gave "
                + offered.only(differ) + ", the pool received " + computed.only(differ) + " (file discarded)");
    }

    /** True while bytes the disk writer took are still in its stage, not yet on disk. */
    private boolean writtenBehind() {
        return written < taken;
    }

    /** Checks the size, fsyncs and commits; runs once, on the disk writer that saw the last byte reach the disk. */
    private void finish() {
        if (state == State.FAILED || taken < received || writtenBehind() || writerActive.get()
                || !finishing.compareAndSet(false, true)) {
            return;
        }
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
        Checksums computed;
        try {
            FileChannel out = out(); // an empty file has had no byte written: opened here
            plan(); // an empty file has had no first byte
            computed = computation.finish();
            Checksums early = receivedChecksums;
            if (early != null) {
                computed = computed.with(early);
            }
            java.util.Set<org.gridcache.common.checksum.ChecksumType> differ = computed.disagreements(offered).keySet();
            if (!differ.isEmpty()) {
                throw mismatch(differ, computed);
            }
            DownloadSink.Verification check = verification;
            if (check != null) {
                check.verify(out, total); // what was written, read back: a mismatch never becomes a hit
            }
            if (verifying && !verified) {
                verified = true; // the content is the origin's: the clients' last byte need not wait for the fsync or the costly checksums
                notifyListeners();
            }
            out.force(true);
            if (afterwards != null) {
                digestFromFile(afterwards, 0, total);
                computed = computed.with(afterwards.finish());
            }
            closeQuietly();
            owner.commit(this, new Sidecar(originUrl, total, mtime, etag, System.currentTimeMillis() / 1000, computed.toHex()));
        } catch (FetchException e) {
            fail(e);
            return;
        } catch (IOException e) {
            if (state == State.FAILED) {
                return; // abandoned meanwhile (pool closing): already reported
            }
            if (!FetchException.isNoSpace(e)) { // a full disk is said once, by fail's line
                LOG.error("store: cannot commit {} from {}: {}", key, OriginFetcher.describe(origin), e.toString());
            }
            fail(FetchException.storeWrite("store the file", e));
            return;
        } catch (RuntimeException e) {
            if (state == State.FAILED) {
                return;
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
            checksums = computed;
            state = State.COMPLETE;
        }
        LOG.debug("fetched {} bytes from {} in {} ms", total, OriginFetcher.describe(origin), (System.nanoTime() - startNanos) / 1_000_000);
        notifyListeners();
        trimWindow(); // readers still sending from memory keep what they need
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
        LOG.warn("fetch from {} failed after {} bytes: {}", OriginFetcher.describe(origin), received, reason.getMessage());
        if (reason.isChecksumMismatch()) {
            owner.checksumMismatch();
        }
        window.close();
        synchronized (trimLock) {
            retainedMemory.add(-retainedCounted);
            retainedCounted = 0;
        }
        giveBack(Long.MAX_VALUE);
        owner.abandon(this);
        notifyListeners();
    }

    /** Closes the part file; idempotent. */
    void closeQuietly() {
        FileChannel open;
        synchronized (this) {
            closed = true;
            open = out;
            out = null;
            if (directWriter != null) {
                try {
                    directWriter.close();
                } catch (IOException e) {
                    LOG.debug("closing part file of {}: {}", key, e.toString());
                }
                directWriter = null;
            }
        }
        if (open == null) {
            return;
        }
        try {
            open.close();
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
