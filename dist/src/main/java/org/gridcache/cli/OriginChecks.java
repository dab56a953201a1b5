package org.gridcache.cli;

import java.net.InetAddress;
import java.net.URI;
import java.net.UnknownHostException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.apache.curator.framework.CuratorFramework;
import org.apache.zookeeper.KeeperException;
import org.gridcache.common.origin.FileOriginRoots;
import org.gridcache.common.Json;
import org.gridcache.common.origin.OriginEntry;
import org.gridcache.door.DoorRecord;
import org.gridcache.zk.layout.ZkLayout;

/**
 * What {@code gridcache origins add} checks before it writes a mount, so that the admin learns now, not a user at read
 * time: a network origin's host resolves (here); a {@code file://} origin lies at or below a
 * {@code --file-origin-root} of some live door (as the doors publish them in {@code /doors}). With no live door, a
 * door too old to publish its roots, or records this client may not read, the file check cannot be made and is
 * skipped.
 */
final class OriginChecks {
    private OriginChecks() {
    }

    /** The host of {@code url} resolves, for a network origin; else the one-line reason. */
    static void hostResolves(OriginEntry entry) {
        if ("file".equals(entry.protocol())) {
            return;
        }
        String host = URI.create(entry.url()).getHost();
        try {
            InetAddress.getAllByName(host);
        } catch (UnknownHostException e) {
            throw new IllegalArgumentException("origin host " + host + " does not resolve: check --url " + entry.url());
        }
    }

    /** A {@code file://} origin lies in a {@code --file-origin-root} of a live door that publishes its roots. */
    static void servedByADoor(CuratorFramework client, OriginEntry entry) throws Exception {
        if (!"file".equals(entry.protocol())) {
            return;
        }
        Path dir = Path.of(URI.create(entry.url())).toAbsolutePath().normalize();
        List<String> published = new ArrayList<>();
        List<String> doors;
        try {
            doors = client.getChildren().forPath(ZkLayout.DOORS);
        } catch (KeeperException.NoNodeException | KeeperException.NoAuthException e) {
            return; // no door yet, or a client that may not read them (and then may not write the mount either)
        }
        for (String id : doors) {
            DoorRecord door;
            try {
                door = Json.mapper().readValue(client.getData().forPath(ZkLayout.door(id)), DoorRecord.class);
            } catch (KeeperException.NoNodeException e) {
                continue; // gone meanwhile
            } catch (KeeperException.NoAuthException e) {
                return;
            }
            if (door.fileOriginRoots() == null) {
                return; // an older door: its roots are unknown
            }
            for (String root : door.fileOriginRoots()) {
                if (dir.startsWith(Path.of(root))) {
                    return;
                }
                published.add(root);
            }
        }
        if (!doors.isEmpty()) {
            throw new IllegalArgumentException(entry.url() + " is not at or below a " + FileOriginRoots.OPTION
                    + " of any door (theirs: " + (published.isEmpty() ? "none" : String.join(", ", published.stream().distinct().toList()))
                    + "): no door would serve it");
        }
    }
}
