package org.gridcache.cli;

import java.util.concurrent.Callable;
import org.apache.curator.framework.CuratorFramework;
import org.gridcache.zk.Zk;
import picocli.CommandLine.Mixin;

/** An admin command that does one thing in ZooKeeper: connects, runs, disconnects. */
abstract class ZkAdminCommand implements Callable<Integer> {
    @Mixin
    CommonOptions common;
    @Mixin
    ZkOptions zk;

    /** Checks done before connecting, so that a bad argument is refused at once with its reason. */
    void validate() {
    }

    abstract int run(CuratorFramework client) throws Exception;

    @Override
    public final Integer call() throws Exception {
        validate();
        try (CuratorFramework client = Zk.connect(zk.connect)) {
            return run(client);
        }
    }
}
