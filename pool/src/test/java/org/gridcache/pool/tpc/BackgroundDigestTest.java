package org.gridcache.pool.tpc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.util.EnumSet;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.gridcache.common.checksum.ChecksumComputation;
import org.gridcache.common.checksum.ChecksumType;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class BackgroundDigestTest {
    private final ExecutorService executor = Executors.newCachedThreadPool();

    @AfterEach
    void stop() {
        executor.shutdownNow();
    }

    /** Many more chunks than may wait, of uneven sizes: the same digests as one pass over the bytes in order. */
    @Test
    void digestsWhatWasFedInOrder() throws Exception {
        byte[] content = new byte[(BackgroundDigest.QUEUED * 3) << 16];
        new Random(11).nextBytes(content);
        EnumSet<ChecksumType> types = EnumSet.of(ChecksumType.MD5, ChecksumType.SHA256);
        BackgroundDigest digest = new BackgroundDigest(types, executor);
        for (int at = 0, n = 1; at < content.length; at += n, n = (n * 7 + 13) % 100_000 + 1) {
            n = Math.min(n, content.length - at);
            digest.update(ByteBuffer.wrap(content, at, n));
        }
        ChecksumComputation once = new ChecksumComputation(types);
        once.update(content, 0, content.length);
        assertEquals(once.finish().toHex(), digest.finish().toHex());
        digest.close(); // after finish: nothing more to end
    }

    /** A copy that fails part-way closes its digest unfinished: the digest thread ends, nothing waits for it. */
    @Test
    void closingUnfinishedEndsTheDigestThread() throws Exception {
        BackgroundDigest digest = new BackgroundDigest(EnumSet.of(ChecksumType.SHA256), executor);
        for (int i = 0; i < BackgroundDigest.QUEUED; i++) {
            digest.update(ByteBuffer.wrap(new byte[1 << 16]));
        }
        digest.close();
        executor.shutdown();
        assertTrue(executor.awaitTermination(30, TimeUnit.SECONDS), "the digest thread ended");
    }
}
