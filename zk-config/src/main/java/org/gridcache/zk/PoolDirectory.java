package org.gridcache.zk;

import java.io.Closeable;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.recipes.cache.ChildData;
import org.apache.curator.framework.recipes.cache.CuratorCache;
import org.apache.curator.framework.recipes.cache.CuratorCacheListener;
import org.gridcache.common.Json;
import org.gridcache.common.PoolRecord;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The live pools as a door sees them: a Curator cache of {@code /pools}, turned into an immutable snapshot on every
 * change so that choosing a pool per request reads one volatile field and allocates nothing.
 */
public final class PoolDirectory implements Closeable {
    private static final Logger LOG = LoggerFactory.getLogger(PoolDirectory.class);
    private final CuratorCache cache;
    private volatile List<PoolRecord> pools = List.of();

    public PoolDirectory(CuratorFramework client) {
        this.cache = CuratorCache.build(client, ZkLayout.POOLS);
    }

    public PoolDirectory start(Duration initialWait) throws InterruptedException {
        CountDownLatch initialized = new CountDownLatch(1);
        cache.listenable().addListener(CuratorCacheListener.builder()
                .forAll((type, oldData, data) -> rebuild())
                .forInitialized(() -> {
                    rebuild();
                    initialized.countDown();
                })
                .build());
        cache.start();
        initialized.await(initialWait.toMillis(), TimeUnit.MILLISECONDS);
        return this;
    }

    private void rebuild() {
        List<PoolRecord> next = new ArrayList<>();
        cache.stream()
                .filter(d -> d.getPath().startsWith(ZkLayout.POOLS + "/"))
                .forEach(d -> parse(d, next));
        pools = List.copyOf(next);
    }

    private static void parse(ChildData data, List<PoolRecord> into) {
        try {
            into.add(Json.read(data.getData(), PoolRecord.class));
        } catch (IllegalArgumentException e) {
            LOG.error("ignoring pool {}: {}", data.getPath(), e.getMessage());
        }
    }

    /** The pools registered now (empty when none is). */
    public List<PoolRecord> live() {
        return pools;
    }

    @Override
    public void close() {
        cache.close();
    }
}
