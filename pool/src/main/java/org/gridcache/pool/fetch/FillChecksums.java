package org.gridcache.pool.fetch;

import io.netty.buffer.ByteBuf;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.util.EnumSet;
import java.util.Set;
import org.gridcache.common.checksum.ChecksumComputation;
import org.gridcache.common.checksum.ChecksumType;
import org.gridcache.common.checksum.Checksums;
import org.gridcache.pool.http.FetchException;
import org.gridcache.pool.origin.DownloadSink;

/**
 * A fill's checksums and its verification against the origin's. The types are split once, at the first byte
 * ({@link #plan}): those fed in file order by whichever thread writes to disk (one at a time): the cheap ones
 * (adler32 and crc32c are CPU intrinsics at GB/s) and those the origin's checksum is compared on, less those fed on
 * receipt; those fed as the bytes arrive by the fetcher (the cheap compared ones, so that a verified fill's last byte
 * waits for the origin's checksum alone, not also for the disk writer to catch up); and the costly rest (md5,
 * sha-256), computed from the part file after the last byte was verified, before the commit, so that they take no
 * CPU from the clients while the file fills.
 *
 * <p>Its monitor guards the plan while it is chosen; nothing is called under it.
 */
final class FillChecksums {
    /** The types {@code pool.checksums} names (when the fill began). */
    private final Set<ChecksumType> types;
    /** The types an origin's checksum will be compared on, announced before the first byte; copied on write. */
    private volatile Set<ChecksumType> compared = Set.of();
    private volatile Checksums offered = Checksums.NONE;
    /** Whether the fetcher verifies the content: the clients' last byte waits for it. Set before the first byte. */
    private volatile boolean verifying;
    /** Set once the origin's checksum agreed (or the verification passed): the clients' last byte goes out. */
    private volatile boolean verified;
    private volatile DownloadSink.Verification verification;
    /** Set once {@link #plan} has chosen the three computations below; they are read without a lock after it. */
    private volatile boolean planned;
    private ChecksumComputation inline;
    private ChecksumComputation onReceipt;
    private ChecksumComputation afterwards;
    /** What {@link #onReceipt} computed, once every byte arrived. */
    private volatile Checksums received;

    FillChecksums(Set<ChecksumType> types) {
        this.types = Set.copyOf(types);
    }

    /** The origin's checksums (compared with what the fill computes), given before the first byte to hold the last. */
    void offered(Checksums fromOrigin) {
        offered = fromOrigin;
        if (!fromOrigin.isEmpty()) {
            compare(fromOrigin.types());
            verifying = true; // the clients' last byte waits for the comparison, so a mismatch fails them too
        }
    }

    /** The fetcher will verify with {@code type} (computed while the file fills). */
    void willVerify(ChecksumType type) {
        compare(Set.of(type));
        verifying = true;
    }

    /** What to run on the part file before the commit. */
    void verifyWith(DownloadSink.Verification check) {
        verification = check;
    }

    boolean holdsLastByte() {
        return verifying && !verified;
    }

    /** Whether {@code type} is computed while the file fills (as the plan chose, or will choose). */
    boolean computes(ChecksumType type) {
        return inlineTypes().contains(type);
    }

    /** Feeds the bytes the fetcher just received to what is computed on receipt. */
    void received(ByteBuf data) {
        plan();
        if (onReceipt != null) {
            for (ByteBuffer b : data.nioBuffers(data.readerIndex(), data.readableBytes())) {
                onReceipt.update(b);
            }
        }
    }

    /** Feeds bytes on their way to disk, in file order. */
    void written(ByteBuffer[] pieces) {
        plan();
        for (ByteBuffer b : pieces) {
            inline.update(b);
        }
    }

    /** Bytes the kernel copied file to file never passed through memory: checksummed from the part file. */
    void copied(FileChannel part, long from, long length) throws IOException {
        plan();
        digest(inline, part, from, length);
        if (onReceipt != null) {
            digest(onReceipt, part, from, length);
        }
    }

    /**
     * Once every byte arrived ({@code whole}: as many as announced and expected): finishes what was computed on
     * receipt and, when that covers every compared type, compares now. True when the content is now verified; a
     * mismatch throws.
     */
    boolean verifyOnReceipt(boolean whole, String origin) throws FetchException {
        plan(); // an empty file has had no first byte
        if (onReceipt == null) {
            return false;
        }
        Checksums got = onReceipt.finish();
        received = got;
        if (!verifying || verification != null || offered.isEmpty() || !got.types().containsAll(compared) || !whole) {
            return false;
        }
        Set<ChecksumType> differ = got.disagreements(offered).keySet();
        if (!differ.isEmpty()) {
            throw mismatch(differ, got, origin);
        }
        verified = true;
        return true;
    }

    /**
     * Once every byte is on disk: the computed checksums, compared with the origin's and checked by the fetcher's
     * verification; true in {@code newlyVerified} when that released the last byte. Throws on a mismatch.
     */
    Checksums verifyWritten(FileChannel part, long size, String origin, boolean[] newlyVerified)
            throws IOException, FetchException {
        plan();
        Checksums computed = inline.finish();
        Checksums early = received;
        if (early != null) {
            computed = computed.with(early);
        }
        Set<ChecksumType> differ = computed.disagreements(offered).keySet();
        if (!differ.isEmpty()) {
            throw mismatch(differ, computed, origin);
        }
        DownloadSink.Verification check = verification;
        if (check != null) {
            check.verify(part, size); // what was written, read back: a mismatch never becomes a hit
        }
        newlyVerified[0] = verifying && !verified;
        verified = true;
        return computed;
    }

    /** {@code computed} with the costly types, read from the complete part file. */
    Checksums withCostly(Checksums computed, FileChannel part, long size) throws IOException {
        if (afterwards == null) {
            return computed;
        }
        digest(afterwards, part, 0, size);
        return computed.with(afterwards.finish());
    }

    private FetchException mismatch(Set<ChecksumType> differ, Checksums computed, String origin) {
        return FetchException.checksumMismatch("checksum mismatch: origin " + origin + " gave " + offered.only(differ)
                + ", the pool received " + computed.only(differ) + " (file discarded)");
    }

    private void plan() {
        if (!planned) { // read per chunk by the fetcher and the disk writer: no lock once chosen
            planNow();
        }
    }

    private synchronized void planNow() {
        if (inline != null) {
            return;
        }
        Set<ChecksumType> cheap = inlineTypes();
        Set<ChecksumType> costly = EnumSet.noneOf(ChecksumType.class);
        costly.addAll(types);
        costly.removeAll(cheap);
        Set<ChecksumType> early = EnumSet.noneOf(ChecksumType.class);
        early.addAll(compared);
        early.removeIf(type -> !type.cheap());
        cheap.removeAll(early);
        inline = new ChecksumComputation(cheap);
        onReceipt = early.isEmpty() ? null : new ChecksumComputation(early);
        afterwards = costly.isEmpty() ? null : new ChecksumComputation(costly);
        planned = true; // after the three: a thread that reads it true sees them
    }

    /** The cheap types of {@code pool.checksums} and the types to be compared with the origin's. */
    private Set<ChecksumType> inlineTypes() {
        Set<ChecksumType> all = EnumSet.noneOf(ChecksumType.class);
        for (ChecksumType type : types) {
            if (type.cheap()) {
                all.add(type);
            }
        }
        all.addAll(compared);
        return all;
    }

    private synchronized void compare(Set<ChecksumType> more) {
        if (inline != null) {
            return; // announced after the first byte: the plan has chosen; computes() says what it covers
        }
        Set<ChecksumType> all = EnumSet.noneOf(ChecksumType.class);
        all.addAll(compared);
        all.addAll(more);
        compared = all;
    }

    /** Feeds {@code into} with the part file's bytes from {@code from} (in the page cache: just written). */
    private static void digest(ChecksumComputation into, FileChannel part, long from, long length) throws IOException {
        if (into.update(part, from, length) < length) {
            throw new IOException("part file shorter than what was copied into it");
        }
    }
}
