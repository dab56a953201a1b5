package org.gridcache.cli;

import java.util.Map;
import org.apache.curator.framework.CuratorFramework;
import org.gridcache.common.settings.ClusterSettings;
import org.gridcache.zk.ClusterConfig;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

/** Cluster-wide settings under /config; doors and pools apply changes live. */
@Command(name = "config", mixinStandardHelpOptions = true, description = "Cluster settings (/config), applied live.",
        subcommands = {ConfigCommand.Set.class, ConfigCommand.Get.class, ConfigCommand.ListSettings.class, ConfigCommand.Unset.class})
final class ConfigCommand {

    @Command(name = "set", mixinStandardHelpOptions = true, description = "Set a setting (validated first).")
    static final class Set extends ZkAdminCommand {
        @Parameters(index = "0", paramLabel = "KEY")
        String key;
        @Parameters(index = "1", paramLabel = "VALUE")
        String value;

        @Override
        void validate() {
            ClusterSettings.validate(key, value);
        }

        @Override
        int run(CuratorFramework client) throws Exception {
            ClusterConfig.set(client, key, value);
            return 0;
        }
    }

    @Command(name = "get", mixinStandardHelpOptions = true, description = "Print a setting's value in force (explicit or default).")
    static final class Get extends ZkAdminCommand {
        @Parameters(index = "0", paramLabel = "KEY")
        String key;

        @Override
        void validate() {
            if (!ClusterSettings.known().containsKey(key)) {
                throw new IllegalArgumentException("unknown setting '" + key + "'");
            }
        }

        @Override
        int run(CuratorFramework client) throws Exception {
            System.out.println(ClusterConfig.list(client).getOrDefault(key, ClusterSettings.known().get(key).defaultValue()));
            return 0;
        }
    }

    @Command(name = "list", mixinStandardHelpOptions = true, description = "Every known setting with its value (* = set explicitly).")
    static final class ListSettings extends ZkAdminCommand {
        @Override
        int run(CuratorFramework client) throws Exception {
            Map<String, String> explicit = ClusterConfig.list(client);
            for (String key : ClusterSettings.known().keySet()) {
                String v = explicit.getOrDefault(key, ClusterSettings.known().get(key).defaultValue());
                System.out.printf("%s%s=%s%n", explicit.containsKey(key) ? "*" : " ", key, v);
            }
            return 0;
        }
    }

    @Command(name = "unset", mixinStandardHelpOptions = true, description = "Return a setting to its default.")
    static final class Unset extends ZkAdminCommand {
        @Parameters(index = "0", paramLabel = "KEY")
        String key;

        @Override
        int run(CuratorFramework client) throws Exception {
            ClusterConfig.unset(client, key);
            return 0;
        }
    }
}
