package org.gridcache.pool.mover;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import com.github.benmanes.caffeine.cache.RemovalCause;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.ssl.SslHandler;
import io.netty.util.internal.PlatformDependent;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;
import org.gridcache.common.MappedReadClients;
import org.gridcache.pool.store.StoreEntry;

/**
 * Hot reads copied from memory mappings of the page cache instead of sent with {@code sendfile(2)}
 * ({@code pool.mapped-reads}). Over loopback the receiver copies every byte whichever way it was sent, so zero-copy
 * saves nothing there, and {@code sendfile}'s splice of page-cache pages (sixteen 4 KiB pages per pass through the
 * kernel's internal pipe) costs more than one copy from a mapping whose page tables are already filled: a 1 GiB hot
 * read went from 3.3 to 4.1 GB/s on the build VM (ARCHITECTURE.md, "Performance design"). To a client across a network
 * {@code sendfile} stays: there the NIC reads the pages itself. TLS never uses a mapping: the TLS library would read
 * it in native code, where a file truncated under it would fault the JVM; the socket's write, the only reader here,
 * fails with {@code EFAULT} instead.
 *
 * <p>The mappings of committed files are kept, by {@link StoreEntry} identity (every stored version has its own
 * entry, and a committed data file never changes), up to {@link #MAPPED_BYTES} of address space, so the next read of
 * a kept file faults no page in. A mapping holds its file's disk space as an open file does: when the store lets an
 * entry go (evicted, stale, replaced: {@link #forget}) or the bound pushes one out, it is unmapped at once if no send
 * is using it, else when the last send using it has had every chunk written (a {@link Lease}), so no chunk in a
 * socket's queue ever points at unmapped memory, and an evicted file's space is free when eviction says so.
 */
public final class MappedReads {
    /** Smaller bodies go out with sendfile: one mapping per small file would cost more than it saves. */
    static final long SMALLEST = 4L << 20;
    /** Address space the kept mappings may take (not memory: the pages are the page cache's). */
    static final long MAPPED_BYTES = 16L << 30;
    /** One {@link MappedByteBuffer} spans at most this much (a buffer's index is an int). */
    static final long SEGMENT = 1L << 30;
    /** Kept for an entry the store let go, so that a send still holding it maps afresh and keeps nothing. */
    private static final Mapping GONE = new Mapping(0, SEGMENT, true);
    private static final AtomicLong MAPPED_NOW = new AtomicLong();

    private final Supplier<MappedReadClients> clients;
    private final Cache<StoreEntry, Mapping> mappings;
    private final long segmentBytes;

    public MappedReads(Supplier<MappedReadClients> clients) {
        this(clients, MAPPED_BYTES, SEGMENT);
    }

    MappedReads(Supplier<MappedReadClients> clients, long mappedBytes, long segmentBytes) {
        this.clients = clients;
        this.segmentBytes = segmentBytes;
        this.mappings = Caffeine.newBuilder()
                .weakKeys() // identity; an entry nobody holds any more takes its mapping with it
                .maximumWeight(Math.max(1, mappedBytes >> 20))
                // a marker for a gone entry weighs as 1 MiB: bounded in number like the mappings
                .weigher((StoreEntry e, Mapping m) -> m == GONE ? 1 : (int) Math.min(Integer.MAX_VALUE, (e.size >> 20) + 1))
                .executor(Runnable::run) // unmapped on the thread that pushed it out, not later
                .removalListener((StoreEntry e, Mapping m, RemovalCause cause) -> {
                    if (m != null) {
                        m.retire();
                    }
                })
                .build();
    }

    /** True when a body of {@code length} bytes to this connection goes out from a mapping. */
    boolean suits(ChannelHandlerContext ctx, long length) {
        if (length < SMALLEST) {
            return false;
        }
        MappedReadClients c = clients.get();
        if (c == MappedReadClients.NONE || ctx.pipeline().get(SslHandler.class) != null) {
            return false;
        }
        return c == MappedReadClients.ALL || isLocal(ctx.channel());
    }

    /** The client connected from an address of this host: loopback, or the address it connected to. */
    static boolean isLocal(Channel channel) {
        if (channel.remoteAddress() instanceof InetSocketAddress remote
                && channel.localAddress() instanceof InetSocketAddress local) {
            InetAddress a = remote.getAddress();
            return a != null && (a.isLoopbackAddress() || a.equals(local.getAddress()));
        }
        return false;
    }

    /**
     * The store let {@code entry} go: its mapping is unmapped now, or when the sends using it end, and a send that
     * still holds the entry maps it for itself only.
     */
    public void forget(StoreEntry entry) {
        if (entry.size >= SMALLEST) { // smaller files are never mapped
            mappings.asMap().put(entry, GONE); // the removal listener retires the mapping it replaces
        }
    }

    /** The mapping of {@code entry} (whose open data file is {@code file}) for one send; {@link Lease#release} it. */
    Lease lease(StoreEntry entry, FileChannel file) {
        while (true) {
            Mapping m = mappings.get(entry, e -> new Mapping(e.size, segmentBytes, false));
            if (m == GONE) {
                Mapping own = new Mapping(entry.size, segmentBytes, false);
                own.acquire();
                own.retire(); // unmapped when this send releases it
                return new Lease(own, file);
            }
            if (m.acquire()) {
                return new Lease(m, file);
            }
            mappings.asMap().remove(entry, m); // retired between the lookup and now: look again
        }
    }

    /** Segments mapped now, kept or in use (for tests). */
    long mappedSegments() {
        return MAPPED_NOW.get();
    }

    /** One send's hold on a mapping. */
    final class Lease {
        private final Mapping mapping;
        private final FileChannel file;
        private boolean released;

        private Lease(Mapping mapping, FileChannel file) {
            this.mapping = mapping;
            this.file = file;
        }

        /** Up to {@code length} bytes from {@code position}, a read-only slice of the mapping (shorter at a segment's end). */
        ByteBuf chunk(long position, int length) throws IOException {
            int segment = (int) (position / segmentBytes);
            MappedByteBuffer mapped = mapping.segment(segment, file);
            int offset = (int) (position - segment * segmentBytes);
            int n = Math.min(length, mapped.capacity() - offset);
            return Unpooled.wrappedBuffer(mapped.slice(offset, n));
        }

        /** Once every chunk of the send is written or failed: no slice of the mapping is queued any more. */
        void release() {
            if (!released) {
                released = true;
                mapping.release();
            }
        }
    }

    /** A file's mapping, one buffer per segment, each mapped when first read; unmapped once retired and unused. */
    private static final class Mapping {
        private final long size;
        private final long segmentBytes;
        private final MappedByteBuffer[] segments;
        private int users;
        private boolean retired;

        Mapping(long size, long segmentBytes, boolean retired) {
            this.size = size;
            this.segmentBytes = segmentBytes;
            this.segments = new MappedByteBuffer[(int) ((size + segmentBytes - 1) / segmentBytes)];
            this.retired = retired;
        }

        /** False when retired: a mapping that is to go gets no new send. */
        synchronized boolean acquire() {
            if (retired) {
                return false;
            }
            users++;
            return true;
        }

        synchronized void release() {
            users--;
            unmapIfDone();
        }

        synchronized void retire() {
            retired = true;
            unmapIfDone();
        }

        synchronized MappedByteBuffer segment(int i, FileChannel file) throws IOException {
            if (segments[i] == null) {
                if (file.size() < size) {
                    throw new IOException("the stored file is shorter than its entry says");
                }
                long start = i * segmentBytes;
                segments[i] = file.map(FileChannel.MapMode.READ_ONLY, start, Math.min(segmentBytes, size - start));
                MAPPED_NOW.incrementAndGet();
            }
            return segments[i];
        }

        private void unmapIfDone() {
            if (retired && users == 0) {
                for (int i = 0; i < segments.length; i++) {
                    if (segments[i] != null) {
                        PlatformDependent.freeDirectBuffer(segments[i]); // no slice of it is queued anywhere
                        segments[i] = null;
                        MAPPED_NOW.decrementAndGet();
                    }
                }
            }
        }
    }
}
