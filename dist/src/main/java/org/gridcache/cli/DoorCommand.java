package org.gridcache.cli;

import java.net.InetAddress;
import java.util.concurrent.Callable;
import org.apache.curator.framework.CuratorFramework;
import org.gridcache.door.Door;
import org.gridcache.door.DoorSettings;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** A WebDAV door as its own process. */
@Command(name = "door", mixinStandardHelpOptions = true, description = "Run a WebDAV door (plain HTTP in this version).")
final class DoorCommand implements Callable<Integer> {
    @Mixin
    CommonOptions common;
    @Mixin
    ZkOptions zk;
    @Mixin
    NodeOptions node;

    @Option(names = "--port", defaultValue = "2880", description = "Port (default: ${DEFAULT-VALUE}).")
    int port;

    @Option(names = "--id", description = "Door id in ZooKeeper (default: door-<hostname>-<port>).")
    String id;

    @Override
    public Integer call() throws Exception {
        Lifecycle life = new Lifecycle();
        try {
            CuratorFramework client = life.add(zk.open());
            String doorId = id != null ? id : "door-" + InetAddress.getLocalHost().getHostName() + "-" + port;
            Door door = life.add(Door.start(new DoorSettings(doorId, node.bind, port, node.publicUrl, node.loadTicketKey()), client));
            System.out.println("gridcache door " + doorId + " is up on " + door.url());
        } catch (Exception e) {
            life.closeAll();
            throw e;
        }
        life.runUntilStopped();
        return 0;
    }
}
