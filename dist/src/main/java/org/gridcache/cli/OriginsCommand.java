package org.gridcache.cli;

import java.util.concurrent.Callable;
import org.apache.curator.framework.CuratorFramework;
import org.gridcache.common.OriginEntry;
import org.gridcache.zk.MountTable;
import org.gridcache.zk.Zk;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** The mount table in ZooKeeper: which origin serves which namespace prefix. */
@Command(name = "origins", mixinStandardHelpOptions = true, description = "Manage the mount table (/origins).",
        subcommands = {OriginsCommand.Add.class, OriginsCommand.ListOrigins.class, OriginsCommand.Remove.class})
final class OriginsCommand {

    @Command(name = "add", mixinStandardHelpOptions = true, description = "Mount an origin at a prefix (replaces an entry of the same name).")
    static final class Add implements Callable<Integer> {
        @Mixin
        CommonOptions common;
        @Mixin
        ZkOptions zk;
        @Parameters(index = "0", paramLabel = "NAME", description = "Entry name.")
        String name;
        @Option(names = "--prefix", required = true, description = "Namespace prefix, e.g. /atlas.")
        String prefix;
        @Option(names = "--url", required = true, description = "Origin URL: http(s)://host:port/path or file:///dir.")
        String url;
        @Option(names = "--credential", paramLabel = "user|service|none",
                description = "What pools present to an https origin: the reading user's delegated proxy (user, the default for https), "
                        + "the pool's host certificate for public data (service), or nothing (none, the default otherwise).")
        String credential;

        @Override
        public Integer call() throws Exception {
            OriginEntry entry = OriginEntry.of(name, prefix, url, credential);
            try (CuratorFramework client = Zk.connect(zk.connect)) {
                MountTable.put(client, entry);
            }
            System.out.println("mounted " + entry.url() + " at " + entry.prefix() + " as " + entry.name()
                    + " (credential " + entry.credentialMode() + ")");
            return 0;
        }
    }

    @Command(name = "list", mixinStandardHelpOptions = true, description = "Show the mount table.")
    static final class ListOrigins implements Callable<Integer> {
        @Mixin
        CommonOptions common;
        @Mixin
        ZkOptions zk;

        @Override
        public Integer call() throws Exception {
            try (CuratorFramework client = Zk.connect(zk.connect)) {
                for (OriginEntry e : MountTable.list(client)) {
                    System.out.printf("%-16s %-24s %-8s %s%n", e.name(), e.prefix(), e.credentialMode(), e.url());
                }
            }
            return 0;
        }
    }

    @Command(name = "remove", mixinStandardHelpOptions = true, description = "Unmount an origin.")
    static final class Remove implements Callable<Integer> {
        @Mixin
        CommonOptions common;
        @Mixin
        ZkOptions zk;
        @Parameters(index = "0", paramLabel = "NAME")
        String name;

        @Override
        public Integer call() throws Exception {
            try (CuratorFramework client = Zk.connect(zk.connect)) {
                if (!MountTable.remove(client, name)) {
                    System.err.println("gridcache: no origin named " + name);
                    return 1;
                }
            }
            return 0;
        }
    }
}
