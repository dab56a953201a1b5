package org.gridcache.cli;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.gridcache.common.settings.ClusterSettings;
import picocli.CommandLine;

/**
 * Writes docs/reference/ from the code that defines it: the cluster settings from {@link ClusterSettings.Keys} and the
 * command line from picocli's own help of every command. {@link ReferenceDocsTest} compares it with the committed copy.
 */
final class ReferenceDocs {
    static final String SETTINGS = "settings.md";
    static final String COMMAND_LINE = "command-line.md";
    static final String REGENERATE = "mvn -o -q test -pl dist -am -Dtest=ReferenceDocsTest "
            + "-Dsurefire.failIfNoSpecifiedTests=false -Dreference.regenerate";
    private static final int WIDTH = 100;
    private static final String HEADER = "<!-- Generated from the code by ReferenceDocsTest: do not edit. Regenerate from the "
            + "repository's root with:\n" + REGENERATE + "\n-->\n\n";

    private ReferenceDocs() {
    }

    /** Every generated file by its name in docs/reference/. */
    static Map<String, String> render() {
        return Map.of(SETTINGS, settings(), COMMAND_LINE, commandLine());
    }

    static String settings() {
        StringBuilder out = new StringBuilder(HEADER).append("# Cluster settings\n\n")
                .append(wrap("Kept in ZooKeeper under /config and shared by every door and pool. Set them with "
                        + "`gridcache config set KEY VALUE`, read them with `gridcache config list`, return one to its "
                        + "default with `gridcache config unset KEY`. Sizes take k, M, G, T (1024-based); durations "
                        + "take ms, s, m, h (a plain number is seconds)."))
                .append('\n');
        for (ClusterSettings.Setting<?> s : ClusterSettings.known().values()) {
            out.append("## `").append(s.key()).append("`\n\n")
                    .append("Default: ").append(s.defaultValue().isEmpty() ? "empty" : "`" + s.defaultValue() + "`")
                    .append("; applied ").append(s.apply() == ClusterSettings.Apply.LIVE ? "live" : "on restart")
                    .append(".\n\n").append(wrap(s.description())).append('\n');
        }
        return out.toString();
    }

    static String commandLine() {
        CommandLine root = GridcacheCli.commandLine(new String[0], null);
        StringBuilder out = new StringBuilder(HEADER).append("# Command line\n\n")
                .append(wrap("Every command of `bin/gridcache` with its options, as `--help` prints them. Every "
                        + "option can also come from a properties file (`--config FILE`), keys named as the long "
                        + "options; flags override the file."))
                .append('\n');
        for (CommandLine command : commands(root, new ArrayList<>())) {
            command.setUsageHelpWidth(WIDTH);
            out.append("## `").append(command.getCommandSpec().qualifiedName()).append("`\n\n```\n")
                    .append(command.getUsageMessage(CommandLine.Help.Ansi.OFF).stripTrailing()).append("\n```\n\n");
        }
        return out.toString();
    }

    private static List<CommandLine> commands(CommandLine command, List<CommandLine> all) {
        all.add(command);
        command.getSubcommands().values().stream().distinct().forEach(sub -> commands(sub, all));
        return all;
    }

    /** {@code text} as lines of at most {@link #WIDTH} characters, ending with a newline. */
    static String wrap(String text) {
        StringBuilder out = new StringBuilder();
        int lineLength = 0;
        for (String word : text.split(" ")) {
            if (lineLength > 0 && lineLength + 1 + word.length() > WIDTH) {
                out.append('\n');
                lineLength = 0;
            } else if (lineLength > 0) {
                out.append(' ');
                lineLength++;
            }
            out.append(word);
            lineLength += word.length();
        }
        return out.append('\n').toString();
    }
}
