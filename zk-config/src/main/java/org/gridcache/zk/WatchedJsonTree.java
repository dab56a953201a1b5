package org.gridcache.zk;

import java.io.Closeable;
import java.time.Duration;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.recipes.cache.ChildData;
import org.apache.curator.framework.recipes.cache.CuratorCache;
import org.apache.curator.framework.recipes.cache.CuratorCacheListener;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A recipe in the manner of Curator's own (ARCHITECTURE.md, "ZooKeeper layout"): a watched znode, or the tree below
 * one, whose data is decoded into values of {@code T}. Every change hands the listener a fresh immutable snapshot
 * (znode path → value) of the nodes that decode; a node that does not is logged and left out, so one bad record
 * never hides the good ones. {@link #start} fails loudly when the first load does not complete in time: a view that
 * silently stays empty would look like "no pools" or "no origins" to every reader.
 *
 * <p>Lifecycle LATENT → STARTED → CLOSED, once each, as in Curator's {@code PersistentNode}. While ZooKeeper is
 * unreachable the snapshot stays the last one loaded; {@link CuratorCache} reloads and notifies on reconnection.
 */
public final class WatchedJsonTree<T> implements Closeable {
    /** Turns a znode's data into a value; throws {@link IllegalArgumentException} with the reason when invalid. */
    @FunctionalInterface
    public interface Decoder<T> {
        T decode(byte[] data);
    }

    /** As {@link Decoder}, for values that must agree with the name of their znode (a pool's id, an origin's name). */
    @FunctionalInterface
    public interface NodeDecoder<T> {
        T decode(String name, byte[] data);
    }

    /** Whether the tree is the znode itself or what lies below it. */
    public enum Scope { NODE, CHILDREN }

    private enum State { LATENT, STARTED, CLOSED }

    private static final Logger LOG = LoggerFactory.getLogger(WatchedJsonTree.class);
    private final AtomicReference<State> state = new AtomicReference<>(State.LATENT);
    private final String path;
    private final Scope scope;
    private final String what;
    private final NodeDecoder<T> decoder;
    private final Consumer<Map<String, T>> listener;
    private final CuratorCache cache;
    private volatile Map<String, T> snapshot = Map.of();
    /** The decoded nodes (guarded by this): a change decodes one node, not the whole tree. */
    private final Map<String, T> decoded = new TreeMap<>();
    /** Set once the first load is complete (guarded by this): the listener hears of whole trees only. */
    private boolean initialized;

    /**
     * @param what how a log line names one node ("origin", "pool"), as in "ignoring pool /pools/p1: …"
     * @param listener called with the new snapshot after each change seen, on Curator's event thread
     */
    public WatchedJsonTree(CuratorFramework client, String path, Scope scope, String what, Decoder<T> decoder,
            Consumer<Map<String, T>> listener) {
        this(client, path, scope, what, nodeDecoder(decoder), listener);
    }

    private static <T> NodeDecoder<T> nodeDecoder(Decoder<T> decoder) {
        Objects.requireNonNull(decoder, "decoder");
        return (name, data) -> decoder.decode(data);
    }

    /** As above, with a decoder that is also given the znode's name (the last segment of its path). */
    public WatchedJsonTree(CuratorFramework client, String path, Scope scope, String what, NodeDecoder<T> decoder,
            Consumer<Map<String, T>> listener) {
        Objects.requireNonNull(client, "client");
        this.path = Objects.requireNonNull(path, "path");
        if (!path.startsWith("/")) {
            throw new IllegalArgumentException("not an absolute znode path: " + path);
        }
        this.scope = Objects.requireNonNull(scope, "scope");
        this.what = Objects.requireNonNull(what, "what");
        this.decoder = Objects.requireNonNull(decoder, "decoder");
        this.listener = Objects.requireNonNull(listener, "listener");
        this.cache = scope == Scope.NODE ? CuratorCache.build(client, path, CuratorCache.Options.SINGLE_NODE_CACHE)
                : CuratorCache.build(client, path);
    }

    /**
     * Starts watching and waits for the first load; throws {@link IllegalStateException} naming the path and the
     * timeout when it does not complete within {@code firstLoadTimeout} (this tree is closed then).
     */
    public void start(Duration firstLoadTimeout) throws InterruptedException {
        Objects.requireNonNull(firstLoadTimeout, "firstLoadTimeout");
        if (!state.compareAndSet(State.LATENT, State.STARTED)) {
            throw new IllegalStateException("watch of " + path + " already started, or closed");
        }
        CountDownLatch loaded = new CountDownLatch(1);
        cache.listenable().addListener(CuratorCacheListener.builder()
                .forAll(this::changed)
                .forInitialized(() -> {
                    synchronized (this) {
                        initialized = true;
                        publish();
                    }
                    loaded.countDown();
                })
                .build());
        cache.start();
        if (!loaded.await(firstLoadTimeout.toMillis(), TimeUnit.MILLISECONDS)) {
            close();
            throw new IllegalStateException("ZooKeeper " + path + " was not loaded within " + firstLoadTimeout.toMillis()
                    + " ms: is ZooKeeper reachable?");
        }
    }

    private synchronized void changed(CuratorCacheListener.Type type, ChildData oldData, ChildData data) {
        ChildData node = type == CuratorCacheListener.Type.NODE_DELETED ? oldData : data;
        if (state.get() != State.STARTED || node == null || !inScope(node)) {
            return;
        }
        decoded.remove(node.getPath());
        if (type != CuratorCacheListener.Type.NODE_DELETED) {
            try {
                decoded.put(node.getPath(), decoder.decode(name(node.getPath()), node.getData()));
            } catch (IllegalArgumentException e) {
                LOG.error("ignoring {} {}: {}", what, node.getPath(), e.getMessage());
            } catch (RuntimeException e) {
                // a record missing a field trips a decoder in ways it did not foresee: still only this node is lost
                LOG.error("ignoring {} {}: not a valid record ({})", what, node.getPath(), e.toString());
            }
        }
        if (initialized) {
            publish();
        }
    }

    private synchronized void publish() {
        if (state.get() != State.STARTED) {
            return;
        }
        Map<String, T> now = java.util.Collections.unmodifiableMap(new TreeMap<>(decoded));
        snapshot = now;
        listener.accept(now);
    }

    private static String name(String path) {
        return path.substring(path.lastIndexOf('/') + 1);
    }

    private boolean inScope(ChildData d) {
        return scope == Scope.NODE ? d.getPath().equals(path) : d.getPath().startsWith(path + "/");
    }

    /**
     * When the znode at {@code znodePath} was last written (epoch milliseconds), as this tree's cache holds it; -1 when
     * it holds no such node.
     */
    public long modifiedMillis(String znodePath) {
        return cache.get(znodePath).map(node -> node.getStat() == null ? -1L : node.getStat().getMtime()).orElse(-1L);
    }

    /** The values decoded at the last change, by znode path (sorted). */
    public Map<String, T> snapshot() {
        return snapshot;
    }

    @Override
    public void close() {
        if (state.getAndSet(State.CLOSED) == State.STARTED) {
            cache.close();
        }
    }
}
