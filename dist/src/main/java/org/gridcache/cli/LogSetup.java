package org.gridcache.cli;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.List;
import java.util.Properties;
import java.util.Set;
import java.util.stream.Stream;

/**
 * Points Logback at the log directory before the first logger exists: {@code <home>/logs} for standalone and zk,
 * {@code --log-dir} (default {@code <dist>/logs}) for door and pool; one file per process, named after it, and one
 * file of transfer records beside it, neither readable by others. Options come from the command line or, as for
 * every option, from the {@code --config} file ({@code log-dir=} or {@code pool.log-dir=}).
 */
final class LogSetup {
    private static final Set<PosixFilePermission> NOT_LOGGED_TO_OTHERS = EnumSet.of(PosixFilePermission.GROUP_WRITE,
            PosixFilePermission.GROUP_EXECUTE, PosixFilePermission.OTHERS_READ, PosixFilePermission.OTHERS_WRITE,
            PosixFilePermission.OTHERS_EXECUTE);

    private static final String NOWHERE = "/dev/null";
    /** The options after which a command only prints its usage or version. */
    private static final Set<String> HELP = Set.of("-h", "--help", "-V", "--version");
    private static final String HELP_CONFIG = "org/gridcache/cli/logback-help.xml";

    private LogSetup() {
    }

    /** {@code config}: the {@code --config} file's properties, or null. */
    static void beforeFirstLogger(String[] args, Properties config) {
        if (args.length == 0 || System.getProperty("gridcache.log.dir") != null) {
            return;
        }
        if (Arrays.stream(args).anyMatch(HELP::contains)) {
            System.setProperty("logback.configurationFile", HELP_CONFIG); // no log directory for a usage text
            return;
        }
        String command = args[0];
        String dir = value(args, config, command, "--log-dir");
        if (dir == null && (command.equals("standalone") || command.equals("zk"))) {
            String home = value(args, config, command, "--home");
            dir = Path.of(home != null ? home : StandaloneCommand.DEFAULT_HOME).resolve("logs").toString();
        }
        if (dir == null) {
            dir = Path.of(System.getProperty("gridcache.dist", "."), "logs").toString();
        }
        String name = processName(args, config);
        System.setProperty("gridcache.log.dir", dir);
        System.setProperty("gridcache.log.name", name);
        if (name.equals("admin")) {
            // a short command says in one line why it failed: ZooKeeper's client would print a stack trace per retry
            System.setProperty("gridcache.zk.log.level", "OFF");
        }
        String transfers = transfersFile(command, dir, name);
        System.setProperty("gridcache.transfers.file", transfers);
        narrowExisting(Path.of(dir), name + ".", transfers.equals(NOWHERE) ? name + "." : Path.of(transfers).getFileName().toString());
    }

    /**
     * The process's log files and transfer records already in {@code dir} (with their rotated copies: names starting
     * with one of {@code prefixes}) lose group write and every right of others, before Logback appends to them: an
     * earlier version left them with the umask's 0644. New ones get at most 0640 from {@code bin/gridcache}'s umask.
     */
    static void narrowExisting(Path dir, String... prefixes) {
        List<Path> files;
        try (Stream<Path> list = Files.list(dir)) {
            files = list.filter(p -> Files.isRegularFile(p, LinkOption.NOFOLLOW_LINKS)
                    && Arrays.stream(prefixes).anyMatch(p.getFileName().toString()::startsWith)).toList();
        } catch (IOException e) {
            return; // no log directory yet: Logback makes it under the umask
        }
        for (Path file : files) {
            try {
                Set<PosixFilePermission> mode = Files.getPosixFilePermissions(file);
                if (mode.removeAll(NOT_LOGGED_TO_OTHERS)) {
                    Files.setPosixFilePermissions(file, mode);
                }
            } catch (IOException e) {
                System.err.println("gridcache: warning: cannot narrow the mode of " + file + " to 0640: " + e.getMessage());
            }
        }
    }

    /**
     * The log file's name, after the process: {@code pool-<name>}, {@code door-<port>}, {@code zk-<id>} for a member
     * of an ensemble (members sharing a host and a log directory keep a file each), {@code zk}, {@code standalone}, and
     * {@code admin} for the short commands.
     */
    static String processName(String[] args, Properties config) {
        String command = args[0];
        return switch (command) {
            case "pool" -> "pool-" + orElse(value(args, config, command, "--name"), "pool");
            case "door" -> "door-" + orElse(value(args, config, command, "--port"), "2880");
            case "zk" -> {
                String id = value(args, config, command, "--id");
                yield id == null ? "zk" : "zk-" + id;
            }
            case "standalone" -> command;
            default -> "admin";
        };
    }

    /**
     * Where the transfer records go: {@code transfers.jsonl} for standalone, {@code transfers-<process>.jsonl} for a
     * door or pool (so processes sharing a log directory never share a file); nowhere for the others, which move no
     * data (an admin command should not leave an empty file behind).
     */
    static String transfersFile(String command, String dir, String name) {
        return switch (command) {
            case "standalone" -> Path.of(dir, "transfers.jsonl").toString();
            case "door", "pool" -> Path.of(dir, "transfers-" + name + ".jsonl").toString();
            default -> NOWHERE;
        };
    }

    private static String orElse(String v, String d) {
        return v != null ? v : d;
    }

    /** The option's value on the command line, else in the config file as {@code PropertiesDefaults} reads it. */
    static String value(String[] args, Properties config, String command, String option) {
        String given = value(args, option);
        if (given != null || config == null) {
            return given;
        }
        String key = option.substring(2);
        return config.getProperty(command + "." + key, config.getProperty(key));
    }

    private static String value(String[] args, String option) {
        for (int i = 0; i < args.length; i++) {
            if (args[i].equals(option) && i + 1 < args.length) {
                return args[i + 1];
            }
            if (args[i].startsWith(option + "=")) {
                return args[i].substring(option.length() + 1);
            }
        }
        return null;
    }
}
