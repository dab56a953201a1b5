package org.gridcache.cli;

import java.util.Map;
import java.util.concurrent.Callable;
import org.apache.curator.framework.CuratorFramework;
import org.gridcache.common.ClusterSettings;
import org.gridcache.zk.ClusterConfig;
import org.gridcache.zk.Zk;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Parameters;

/** Cluster-wide settings under /config; doors and pools apply changes live. */
@Command(name = "config", mixinStandardHelpOptions = true, description = "Cluster settings (/config), applied live.",
        subcommands = {ConfigCommand.Set.class, ConfigCommand.Get.class, ConfigCommand.ListSettings.class, ConfigCommand.Unset.class})
final class ConfigCommand {

    @Command(name = "set", mixinStandardHelpOptions = true, description = "Set a setting (validated first).")
    static final class Set implements Callable<Integer> {
        @Mixin
        CommonOptions common;
        @Mixin
        ZkOptions zk;
        @Parameters(index = "0", paramLabel = "KEY")
        String key;
        @Parameters(index = "1", paramLabel = "VALUE")
        String value;

        @Override
        public Integer call() throws Exception {
            ClusterSettings.validate(key, value); // refuse before connecting: the reason is the answer
            try (CuratorFramework client = Zk.connect(zk.connect)) {
                ClusterConfig.set(client, key, value);
            }
            return 0;
        }
    }

    @Command(name = "get", mixinStandardHelpOptions = true, description = "Print a setting's value in force (explicit or default).")
    static final class Get implements Callable<Integer> {
        @Mixin
        CommonOptions common;
        @Mixin
        ZkOptions zk;
        @Parameters(index = "0", paramLabel = "KEY")
        String key;

        @Override
        public Integer call() throws Exception {
            if (!ClusterSettings.known().containsKey(key)) {
                throw new IllegalArgumentException("unknown setting '" + key + "'");
            }
            try (CuratorFramework client = Zk.connect(zk.connect)) {
                System.out.println(ClusterSettings.of(ClusterConfig.list(client)).get(key));
            }
            return 0;
        }
    }

    @Command(name = "list", mixinStandardHelpOptions = true, description = "Every known setting with its value (* = set explicitly).")
    static final class ListSettings implements Callable<Integer> {
        @Mixin
        CommonOptions common;
        @Mixin
        ZkOptions zk;

        @Override
        public Integer call() throws Exception {
            try (CuratorFramework client = Zk.connect(zk.connect)) {
                Map<String, String> explicit = ClusterConfig.list(client);
                for (String key : ClusterSettings.known().keySet()) {
                    String v = explicit.getOrDefault(key, ClusterSettings.known().get(key).defaultValue());
                    System.out.printf("%s%s=%s%n", explicit.containsKey(key) ? "*" : " ", key, v);
                }
            }
            return 0;
        }
    }

    @Command(name = "unset", mixinStandardHelpOptions = true, description = "Return a setting to its default.")
    static final class Unset implements Callable<Integer> {
        @Mixin
        CommonOptions common;
        @Mixin
        ZkOptions zk;
        @Parameters(index = "0", paramLabel = "KEY")
        String key;

        @Override
        public Integer call() throws Exception {
            try (CuratorFramework client = Zk.connect(zk.connect)) {
                ClusterConfig.unset(client, key);
            }
            return 0;
        }
    }
}
