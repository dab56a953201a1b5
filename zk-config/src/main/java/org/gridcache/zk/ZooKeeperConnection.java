package org.gridcache.zk;

import java.io.Closeable;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.state.ConnectionState;
import org.apache.curator.framework.state.ConnectionStateListener;

/**
 * A node's ZooKeeper connection as monitoring reports it (the {@code zookeeper.connection} gauges of doors and pools).
 * Curator's listener is the only writer after the first reading; each change replaces the state whole.
 */
public final class ZooKeeperConnection implements Closeable {

    /** The states a gauge reports, one series each. */
    public enum State {
        /** Connected (again) to a member of the quorum. */
        CONNECTED,
        /** The connection dropped; the session may still be alive, and watches are not firing. */
        SUSPENDED,
        /** The session is taken as expired: ephemeral nodes (a pool's registration) are gone until re-created. */
        LOST,
        /** Connected to a member cut off from the quorum: reads only. */
        READ_ONLY;

        public String label() {
            return name().toLowerCase(Locale.ROOT).replace('_', '-');
        }

        static State of(ConnectionState state) {
            return switch (state) {
                case CONNECTED, RECONNECTED -> CONNECTED;
                case SUSPENDED -> SUSPENDED;
                case LOST -> LOST;
                case READ_ONLY -> READ_ONLY;
            };
        }
    }

    private final CuratorFramework client;
    private final AtomicReference<State> state = new AtomicReference<>();
    private final ConnectionStateListener listener = (c, next) -> state.set(State.of(next));

    private ZooKeeperConnection(CuratorFramework client) {
        this.client = client;
    }

    /** Follows {@code client}'s connection from now on, until {@link #close()}. */
    public static ZooKeeperConnection watch(CuratorFramework client) {
        ZooKeeperConnection connection = new ZooKeeperConnection(client);
        client.getConnectionStateListenable().addListener(connection.listener);
        // the listener hears changes only: the state now, unless a change came first
        connection.state.compareAndSet(null, client.getZookeeperClient().isConnected() ? State.CONNECTED : State.SUSPENDED);
        return connection;
    }

    public State state() {
        return state.get();
    }

    /** 1 while the connection is in {@code s}, else 0: the value of {@code s}'s gauge. */
    public int is(State s) {
        return state.get() == s ? 1 : 0;
    }

    @Override
    public void close() {
        client.getConnectionStateListenable().removeListener(listener);
    }
}
