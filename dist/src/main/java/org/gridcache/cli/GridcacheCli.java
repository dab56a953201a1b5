package org.gridcache.cli;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Properties;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/**
 * {@code bin/gridcache}: one command line for every part (standalone, zk, door, pool) and the admin commands
 * (origins, config). Every option can also come from a properties file given with {@code --config FILE}.
 */
@Command(name = "gridcache", mixinStandardHelpOptions = true, versionProvider = GridcacheCli.Version.class,
        description = "A grid data cache: a WebDAV door that redirects reads to cooperating cache pools.",
        subcommands = {StandaloneCommand.class, ZkCommand.class, DoorCommand.class, PoolCommand.class,
                OriginsCommand.class, ConfigCommand.class, DelegateCommand.class})
public final class GridcacheCli {

    public static void main(String[] args) {
        LogSetup.beforeFirstLogger(args, configFile(args));
        CommandLine cli = commandLine(args);
        System.exit(cli.execute(args));
    }

    static CommandLine commandLine(String[] args) {
        CommandLine cli = new CommandLine(new GridcacheCli());
        Properties fromFile = configFile(args);
        if (fromFile != null) {
            PropertiesDefaults defaults = new PropertiesDefaults(fromFile);
            cli.setDefaultValueProvider(defaults);
            for (String key : defaults.unknownKeys(cli)) {
                cli.getErr().println("gridcache: warning: --config: no option reads '" + key + "'; it is ignored");
            }
        }
        cli.setExecutionExceptionHandler((e, commandLine, parseResult) -> {
            // operators get one line; the stack trace goes to the log
            commandLine.getErr().println("gridcache: " + (e.getMessage() != null ? e.getMessage() : e.toString()));
            org.slf4j.LoggerFactory.getLogger(GridcacheCli.class).debug("command failed", e);
            return 1;
        });
        return cli;
    }

    /** The properties file named by {@code --config FILE} (or {@code --config=FILE}), read before parsing. */
    static Properties configFile(String[] args) {
        for (int i = 0; i < args.length; i++) {
            String file = null;
            if (args[i].equals("--config") && i + 1 < args.length) {
                file = args[i + 1];
            } else if (args[i].startsWith("--config=")) {
                file = args[i].substring("--config=".length());
            }
            if (file != null) {
                Properties p = new Properties();
                try (InputStream in = Files.newInputStream(Path.of(file))) {
                    p.load(in);
                } catch (IOException e) {
                    throw new IllegalArgumentException("cannot read --config " + file + ": " + e.getMessage());
                }
                return p;
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
