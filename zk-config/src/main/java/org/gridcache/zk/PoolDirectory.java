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
    private volatile List<PoolRecord> selectable = List.of();

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
        List<PoolRecord> enabled = next.stream().filter(p -> PoolRecord.ENABLED.equals(p.state())).toList();
        // read-only pools serve hits only: chosen when no enabled pool is left; draining pools never
        selectable = !enabled.isEmpty() ? enabled : next.stream().filter(PoolRecord::readOnly).toList();
        pools = List.copyOf(next);
    }

    private static void parse(ChildData data, List<PoolRecord> into) {
        try {
            into.add(Json.read(data.getData(), PoolRecord.class));
        } catch (IllegalArgumentException e) {
            LOG.error("ignoring pool {}: {}", data.getPath(), e.getMessage());
        }
    }

    /** The pools registered now (empty when none is), whatever their state. */
    public List<PoolRecord> live() {
        return pools;
    }

    /**
     * The pools a door may send a new read to: the enabled ones, or when there are none the read-only ones (they
     * serve what they hold); never a draining pool.
     */
    public List<PoolRecord> selectable() {
        return selectable;
    }

    @Override
    public void close() {
        cache.close();
    }
}
