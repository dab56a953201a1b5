package org.gridcache.cli;

import org.apache.curator.framework.CuratorFramework;
import org.gridcache.common.origin.OriginEntry;
import org.gridcache.zk.MountTable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** The mount table in ZooKeeper: which origin serves which namespace prefix. */
@Command(name = "origins", mixinStandardHelpOptions = true, description = "Manage the mount table (/origins).",
        subcommands = {OriginsCommand.Add.class, OriginsCommand.ListOrigins.class, OriginsCommand.Remove.class})
final class OriginsCommand {

    @Command(name = "add", mixinStandardHelpOptions = true, description = "Mount an origin at a prefix (replaces an entry of the same name).")
    static final class Add extends ZkAdminCommand {
        @Parameters(index = "0", paramLabel = "NAME", description = "Entry name.")
        String name;
        @Option(names = "--prefix", required = true, description = "Namespace prefix, e.g. /atlas.")
        String prefix;
        @Option(names = "--url", required = true, description = "Origin URL: http(s)://host:port/path, gsiftp://host:port/path (GridFTP) or file:///dir.")
        String url;
        @Option(names = "--credential", paramLabel = "user|service|token|none",
                description = "What pools present to an https or gsiftp origin: the reading user's delegated proxy (user, the default for https and gsiftp), "
                        + "the pool's host certificate for public data (service), the user's own bearer token to an http(s) origin (token), "
                        + "or nothing (none, the default otherwise).")
        String credential;
        @Option(names = "--vo", paramLabel = "VO", description = "The virtual organisation whose data the origin holds: with "
                + "srr.shares=vo the storage report counts the origin's cached files in that VO's share.")
        String vo;
        @Option(names = "--no-check", description = "Write the entry without checking that its host resolves here and that a "
                + "live door's --file-origin-root holds a file:// origin (the door still refuses what it may not serve).")
        boolean noCheck;
        private OriginEntry entry;

        @Override
        void validate() {
            entry = OriginEntry.of(name, prefix, url, credential).withVo(vo);
            if (!noCheck) {
                OriginChecks.hostResolves(entry);
            }
        }

        @Override
        int run(CuratorFramework client) throws Exception {
            if (!noCheck) {
                OriginChecks.servedByADoor(client, entry);
            }
            MountTable.put(client, entry);
            System.out.println("mounted " + entry.url() + " at " + entry.prefix() + " as " + entry.name()
                    + " (credential " + entry.credentialMode().id() + (entry.vo() == null ? "" : ", VO " + entry.vo()) + ")");
            return 0;
        }
    }

    @Command(name = "list", mixinStandardHelpOptions = true, description = "Show the mount table.")
    static final class ListOrigins extends ZkAdminCommand {
        @Override
        int run(CuratorFramework client) throws Exception {
            for (OriginEntry e : MountTable.list(client)) {
                System.out.printf("%-16s %-24s %-8s %s%s%n", e.name(), e.prefix(), e.credentialMode().id(), e.url(),
                        e.vo() == null ? "" : "  vo=" + e.vo());
            }
            return 0;
        }
    }

    @Command(name = "remove", mixinStandardHelpOptions = true, description = "Unmount an origin.")
    static final class Remove extends ZkAdminCommand {
        @Parameters(index = "0", paramLabel = "NAME")
        String name;

        @Override
        int run(CuratorFramework client) throws Exception {
            if (!MountTable.remove(client, name)) {
                System.err.println("gridcache: no origin named " + name);
                return 1;
            }
            return 0;
        }
    }
}
