package org.gridcache.cli;

import java.nio.file.Files;
import java.nio.file.Path;
import org.gridcache.cli.config.CheckConfigCommand;
import org.gridcache.cli.config.ConfigDefaults;
import org.gridcache.cli.config.ConfigError;
import org.gridcache.cli.config.ConfigFile;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/**
 * {@code bin/gridcache}: one command line for every part (standalone, zk, door, pool) and the admin commands
 * (origins, config, transfers, check-config). Every option can also come from a properties file given with {@code --config FILE}.
 */
@Command(name = "gridcache", mixinStandardHelpOptions = true, versionProvider = GridcacheCli.Version.class,
        description = "A grid data cache: a WebDAV door that redirects reads to cooperating cache pools.",
        subcommands = {StandaloneCommand.class, ZkCommand.class, DoorCommand.class, PoolCommand.class,
                OriginsCommand.class, ConfigCommand.class, TransfersCommand.class, DelegateCommand.class,
                CheckConfigCommand.class})
public final class GridcacheCli {
    /**
     * System property: the configuration directory ({@code bin/gridcache}: $GRIDCACHE_CONF_DIR, else {@code <dist>/etc}),
     * where {@code <command>.conf} is read by default, beside logback.xml and the nodes' keys.
     */
    static final String CONF_DIR = "gridcache.conf.dir";

    public static void main(String[] args) {
        CommandLine cli;
        try {
            ConfigFile config = configFile(args);
            LogSetup.beforeFirstLogger(args, config != null ? config.properties() : null);
            cli = commandLine(args, config);
        } catch (ConfigError e) {
            // bad configuration never starts half a service: one line, nothing started
            System.err.println("gridcache: " + e.getMessage());
            System.exit(2);
            return;
        }
        System.exit(cli.execute(args));
    }

    /** The command line for {@code args}, its options' defaults from {@code config} (null: none), checked. */
    static CommandLine commandLine(String[] args, ConfigFile config) {
        CommandLine cli = new CommandLine(new GridcacheCli());
        if (config != null) {
            ConfigDefaults defaults = new ConfigDefaults(config);
            cli.setDefaultValueProvider(defaults);
            defaults.check(cli, command(args));
        }
        cli.setExecutionExceptionHandler((e, commandLine, parseResult) -> {
            // operators get one line; the stack trace goes to the log
            commandLine.getErr().println("gridcache: " + (e.getMessage() != null ? e.getMessage() : e.toString()));
            org.slf4j.LoggerFactory.getLogger(GridcacheCli.class).debug("command failed", e);
            return 1;
        });
        return cli;
    }

    /** The command whose options the file sets: {@code check-config ROLE} checks ROLE's. */
    static String command(String[] args) {
        if (args.length > 1 && args[0].equals(CheckConfigCommand.NAME)) {
            return args[1];
        }
        return args.length > 0 ? args[0] : "";
    }

    /**
     * The file named by {@code --config FILE} (or {@code --config=FILE}), read before parsing; without it
     * {@code <configuration directory>/<command>.conf} when present (/etc/gridcache/door.conf as packaged); else null.
     */
    static ConfigFile configFile(String[] args) {
        for (int i = 0; i < args.length; i++) {
            if (args[i].equals("--config") && i + 1 < args.length) {
                return ConfigFile.read(Path.of(args[i + 1]));
            } else if (args[i].startsWith("--config=")) {
                return ConfigFile.read(Path.of(args[i].substring("--config=".length())));
            }
        }
        String dir = System.getProperty(CONF_DIR);
        if (dir != null && !dir.isEmpty() && !command(args).isEmpty()) {
            Path byDefault = Path.of(dir, command(args) + ".conf");
            if (Files.exists(byDefault)) {
                return ConfigFile.read(byDefault);
            }
        }
        return null;
    }

    static final class Version implements CommandLine.IVersionProvider {
        @Override
        public String[] getVersion() {
            String v = GridcacheCli.class.getPackage().getImplementationVersion();
            return new String[] {"gridcache " + (v != null ? v : "(development build)")};
        }
    }
}
