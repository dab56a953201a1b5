package org.gridcache.cli;

import java.nio.file.Path;

/**
 * Points Logback at the log directory before the first logger exists: {@code <home>/logs} for standalone and zk,
 * {@code --log-dir} (default {@code <dist>/logs}) for door and pool; one file per process, named after it, and one
 * file of transfer records beside it.
 */
final class LogSetup {
    private LogSetup() {
    }

    static void beforeFirstLogger(String[] args) {
        if (args.length == 0 || System.getProperty("gridcache.log.dir") != null) {
            return;
        }
        String command = args[0];
        String dir = value(args, "--log-dir");
        if (dir == null && (command.equals("standalone") || command.equals("zk"))) {
            String home = value(args, "--home");
            dir = Path.of(home != null ? home : StandaloneCommand.DEFAULT_HOME).resolve("logs").toString();
        }
        if (dir == null) {
            dir = Path.of(System.getProperty("gridcache.dist", "."), "logs").toString();
        }
        String name = switch (command) {
            case "pool" -> "pool-" + orElse(value(args, "--name"), "pool");
            case "door" -> "door-" + orElse(value(args, "--port"), "2880");
            case "standalone", "zk" -> command;
            default -> "admin";
        };
        System.setProperty("gridcache.log.dir", dir);
        System.setProperty("gridcache.log.name", name);
        System.setProperty("gridcache.transfers.file", transfersFile(command, dir, name));
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
            default -> "/dev/null";
        };
    }

    private static String orElse(String v, String d) {
        return v != null ? v : d;
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
