package org.gridcache.door;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.apache.curator.framework.CuratorFramework;
import org.gridcache.common.origin.FileOriginRoots;
import org.gridcache.common.origin.OriginEntry;
import org.gridcache.common.ticket.TicketSigningKey;
import org.gridcache.zk.EmbeddedZooKeeper;
import org.gridcache.zk.MountTable;
import org.gridcache.zk.Zk;

/**
 * Two plain-HTTP doors on one embedded ZooKeeper, in front of a {@code file://} origin at {@code /local} whose
 * {@code readonly/} (holding {@code kept.txt}) anyone may list and read but not write; everyone may write the rest.
 * What the write, lock and property tests share: what one door does, the other must show.
 */
final class TwoDoors {
    /** Mounts and settings a test adds before the doors start (they read them at start). */
    @FunctionalInterface
    interface Setup {
        void before(CuratorFramework zk) throws Exception;
    }

    final CuratorFramework zk;
    final Path files;
    final Door door;
    final Door door2;

    private TwoDoors(CuratorFramework zk, Path files, Door door, Door door2) {
        this.zk = zk;
        this.files = files;
        this.door = door;
        this.door2 = door2;
    }

    /** Doors {@code id} and {@code id2}; everything started goes to {@code closeables}, which the test closes. */
    static TwoDoors start(Path tmp, String id, List<AutoCloseable> closeables) throws Exception {
        return start(tmp, id, closeables, List.of(), zk -> { });
    }

    /** As above, with more {@code file://} roots the doors may serve, and {@code setup} run before they start. */
    static TwoDoors start(Path tmp, String id, List<AutoCloseable> closeables, List<Path> moreRoots, Setup setup)
            throws Exception {
        EmbeddedZooKeeper server = EmbeddedZooKeeper.start(tmp.resolve("zk"), "127.0.0.1", 0);
        closeables.add(server);
        CuratorFramework zk = Zk.connect(server.connectString());
        closeables.add(zk);
        Path files = Files.createDirectories(tmp.resolve("files"));
        Files.createDirectories(files.resolve("readonly"));
        Files.writeString(files.resolve("readonly/kept.txt"), "kept");
        MountTable.put(zk, OriginEntry.of("local", "/local", files.toUri().toString()));
        setup.before(zk);
        Path policy = Files.writeString(tmp.resolve("authz"), """
                anyone /local/readonly list,read
                anyone / list,read,write
                """);
        List<Path> roots = new ArrayList<>(List.of(files));
        roots.addAll(moreRoots);
        Door door = Door.start(new DoorSettings(id, "127.0.0.1", 0, null, List.of(TicketSigningKey.generate()),
                DoorSecurity.plain(policy), FileOriginRoots.of(roots)), zk);
        closeables.add(door);
        Door door2 = Door.start(new DoorSettings(id + "2", "127.0.0.1", 0, null, List.of(TicketSigningKey.generate()),
                DoorSecurity.plain(policy), FileOriginRoots.of(roots)), zk);
        closeables.add(door2);
        return new TwoDoors(zk, files, door, door2);
    }
}
