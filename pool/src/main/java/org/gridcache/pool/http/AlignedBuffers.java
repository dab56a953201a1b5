package org.gridcache.pool.http;

import io.netty.buffer.PooledByteBufAllocator;

/**
 * The buffers of the pool's connections, clients' and origins': Netty's pooled allocator with its defaults, but every
 * buffer starting on a cache line. Its default places buffers 16 bytes past a page boundary (the JDK's direct memory
 * is malloc's), and on the AMD EPYC VMs here the kernel's copies into such a buffer ({@code rep movsb}) ran at a
 * quarter of their speed: reading a file's pages into the chunks that TLS encrypts took 6 % of all CPU in the HTTPS
 * aggregate, nginx's same reads 1.5 %; aligned, 1 % (ARCHITECTURE.md, "Performance design").
 */
public final class AlignedBuffers {
    static final int ALIGNMENT = 64;
    public static final PooledByteBufAllocator ALLOCATOR = new PooledByteBufAllocator(PooledByteBufAllocator.defaultPreferDirect(),
            PooledByteBufAllocator.defaultNumHeapArena(), PooledByteBufAllocator.defaultNumDirectArena(),
            PooledByteBufAllocator.defaultPageSize(), PooledByteBufAllocator.defaultMaxOrder(),
            PooledByteBufAllocator.defaultSmallCacheSize(), PooledByteBufAllocator.defaultNormalCacheSize(),
            PooledByteBufAllocator.defaultUseCacheForAllThreads(), ALIGNMENT);

    private AlignedBuffers() {
    }
}
