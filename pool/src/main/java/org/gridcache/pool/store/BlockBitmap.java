package org.gridcache.pool.store;

import java.util.Base64;
import java.util.BitSet;

/**
 * Which blocks of a partial file are proven (on disk, fsync'ed, recorded): one bit per block, block {@code i} the
 * bytes {@code [i * blockSize, min((i + 1) * blockSize, size))}. Its text form, kept in the {@link Sidecar}, is the
 * base64 of the bits in little-endian order ({@link BitSet#toByteArray}): 1 GiB in 128 KiB blocks is 1 KiB of bits,
 * on disk only while the file is partial. Not thread-safe: {@link Store} guards it.
 */
public final class BlockBitmap {
    private final long size;
    private final int blockSize;
    private final int blocks;
    private final BitSet proven;

    private BlockBitmap(long size, int blockSize, BitSet proven) {
        this.size = size;
        this.blockSize = blockSize;
        this.blocks = blockCount(size, blockSize);
        this.proven = proven;
    }

    public static BlockBitmap empty(long size, int blockSize) {
        if (size <= 0 || blockSize <= 0) {
            throw new IllegalArgumentException("a partial file needs a size and a block size");
        }
        return new BlockBitmap(size, blockSize, new BitSet());
    }

    /** Parses the sidecar's form; throws IllegalArgumentException when it is not base64 or names a block past the end. */
    public static BlockBitmap decode(long size, int blockSize, String text) {
        BlockBitmap b = empty(size, blockSize);
        BitSet bits = BitSet.valueOf(Base64.getDecoder().decode(text == null ? "" : text));
        if (bits.length() > b.blocks) {
            throw new IllegalArgumentException("bitmap names block " + (bits.length() - 1) + " of a file of " + b.blocks + " blocks");
        }
        b.proven.or(bits);
        return b;
    }

    public String encode() {
        return Base64.getEncoder().encodeToString(proven.toByteArray());
    }

    static int blockCount(long size, int blockSize) {
        return Math.toIntExact((size + blockSize - 1) / blockSize);
    }

    public int blocks() {
        return blocks;
    }

    public int blockSize() {
        return blockSize;
    }

    public long size() {
        return size;
    }

    /** The block holding byte {@code offset}. */
    public int blockOf(long offset) {
        return (int) (offset / blockSize);
    }

    public long startOf(int block) {
        return (long) block * blockSize;
    }

    /** Bytes of block {@code block} (the last one may be short). */
    public long lengthOf(int block) {
        return Math.min(size, startOf(block) + blockSize) - startOf(block);
    }

    public boolean has(int block) {
        return proven.get(block);
    }

    public void set(int from, int toExclusive) {
        proven.set(from, toExclusive);
    }

    /** A copy with blocks {@code [from, toExclusive)} set too: the bitmap a sidecar records before this one changes. */
    public BlockBitmap with(int from, int toExclusive) {
        BlockBitmap copy = new BlockBitmap(size, blockSize, (BitSet) proven.clone());
        copy.set(from, toExclusive);
        return copy;
    }

    /** Whether every block holding a byte of {@code [start, end]} is proven. */
    public boolean covers(long start, long end) {
        int last = blockOf(end);
        for (int i = blockOf(start); i <= last; i++) {
            if (!proven.get(i)) {
                return false;
            }
        }
        return true;
    }

    public boolean complete() {
        return proven.cardinality() == blocks;
    }

    /** Bytes the proven blocks hold: what the partial file counts against the store's capacity. */
    public long storedBytes() {
        long n = (long) proven.cardinality() * blockSize;
        if (proven.get(blocks - 1)) {
            n -= blockSize - lengthOf(blocks - 1);
        }
        return n;
    }
}
