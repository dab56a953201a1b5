package org.gridcache.pool.mover;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.ssl.SslHandler;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.util.function.Supplier;
import org.gridcache.common.MappedReadClients;
import org.gridcache.pool.store.StoreEntry;

/**
 * Hot reads copied from memory mappings of the page cache instead of sent with {@code sendfile(2)}
 * ({@code pool.mapped-reads}). Over loopback the receiver copies every byte whichever way it was sent, so zero-copy
 * saves nothing there, and {@code sendfile}'s splice of page-cache pages (sixteen 4 KiB pages per pass through the
 * kernel's internal pipe) costs more than one copy from a mapping whose page tables are already filled: a 1 GiB hot
 * read went from 3.3 to 4.1 GB/s on the build VM (docs/benchmarks.md, P1). To a client across a network
 * {@code sendfile} stays: there the NIC reads the pages itself. TLS never uses a mapping: the TLS library would read
 * it in native code, where a file truncated under it would fault the JVM; the socket's write, the only reader here,
 * fails with {@code EFAULT} instead.
 *
 * <p>The mappings of committed files are kept, by {@link StoreEntry} identity (every stored version has its own
 * entry, and a committed data file never changes), up to {@link #MAPPED_BYTES} of address space; the next read of a
 * kept file faults no page in. An evicted or replaced file's mapping is released by the collector once no response
 * still sends from it, so no chunk in a socket's queue ever points at unmapped memory.
 */
public final class MappedReads {
    /** Smaller bodies go out with sendfile: one mapping per small file would cost more than it saves. */
    static final long SMALLEST = 4L << 20;
    /** Address space the kept mappings may take (not memory: the pages are the page cache's). */
    static final long MAPPED_BYTES = 16L << 30;
    /** One {@link MappedByteBuffer} spans at most this much (a buffer's index is an int). */
    static final long SEGMENT = 1L << 30;

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
                .weakKeys() // identity, and an entry the store dropped takes its mapping with it
                .maximumWeight(Math.max(1, mappedBytes >> 20))
                .weigher((StoreEntry e, Mapping m) -> (int) Math.min(Integer.MAX_VALUE, (e.size >> 20) + 1))
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
     * Up to {@code length} bytes of {@code entry}'s data from {@code position}, as a read-only buffer over its mapping
     * (shorter where a segment ends). {@code file} is the entry's open data file, mapped on first use.
     */
    ByteBuf chunk(StoreEntry entry, FileChannel file, long position, int length) throws IOException {
        int segment = (int) (position / segmentBytes);
        MappedByteBuffer mapped = mappings.get(entry, e -> new Mapping(e.size, segmentBytes)).segment(segment, file);
        int offset = (int) (position - segment * segmentBytes);
        int n = Math.min(length, mapped.capacity() - offset);
        return Unpooled.wrappedBuffer(mapped.slice(offset, n));
    }

    /** A committed file's mapping, one buffer per segment, each mapped when first read. */
    private static final class Mapping {
        private final long size;
        private final long segmentBytes;
        private final MappedByteBuffer[] segments;

        Mapping(long size, long segmentBytes) {
            this.size = size;
            this.segmentBytes = segmentBytes;
            this.segments = new MappedByteBuffer[(int) ((size + segmentBytes - 1) / segmentBytes)];
        }

        synchronized MappedByteBuffer segment(int i, FileChannel file) throws IOException {
            if (segments[i] == null) {
                if (file.size() < size) {
                    throw new IOException("the stored file is shorter than its entry says");
                }
                long start = i * segmentBytes;
                segments[i] = file.map(FileChannel.MapMode.READ_ONLY, start, Math.min(segmentBytes, size - start));
            }
            return segments[i];
        }
    }
}
