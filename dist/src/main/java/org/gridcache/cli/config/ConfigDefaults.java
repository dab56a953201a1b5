package org.gridcache.cli.config;

import java.util.Comparator;
import java.util.Set;
import java.util.TreeSet;
import org.apache.commons.text.similarity.LevenshteinDistance;
import org.gridcache.cli.config.ConfigFile.Entry;
import org.gridcache.common.ByteSize;
import org.gridcache.common.settings.ClusterSettings;
import picocli.CommandLine;
import picocli.CommandLine.Model.ArgSpec;
import picocli.CommandLine.Model.OptionSpec;

/**
 * Options' values from a {@link ConfigFile}: {@code --capacity} of {@code gridcache pool} is read from the key
 * {@code pool.capacity}, else from {@code capacity} (so one file may serve several commands); the command line wins.
 * {@link #check} refuses, before anything starts, a key no option reads and a value its option cannot take.
 */
public final class ConfigDefaults implements CommandLine.IDefaultValueProvider {
    private final ConfigFile file;

    public ConfigDefaults(ConfigFile file) {
        this.file = file;
    }

    public ConfigFile file() {
        return file;
    }

    @Override
    public String defaultValue(ArgSpec arg) {
        Entry entry = entryFor(arg);
        return entry != null ? entry.value() : null;
    }

    /** The entry {@code arg} takes its value from, or null. */
    public Entry entryFor(ArgSpec arg) {
        if (!(arg instanceof OptionSpec option) || key(option).equals("config")) {
            return null;
        }
        Entry qualified = option.command() != null ? file.get(option.command().name() + "." + key(option)) : null;
        return qualified != null ? qualified : file.get(key(option));
    }

    /**
     * Throws a {@link ConfigError} naming the file and line of the first key that no option of any command reads
     * (with the closest key that one does), or of a value that an option of {@code command} cannot take.
     */
    public void check(CommandLine root, String command) {
        Set<String> known = new TreeSet<>();
        collect(root, known);
        for (Entry entry : file.entries().values()) {
            if (!known.contains(entry.key())) {
                throw new ConfigError(entry.where() + ": no option reads '" + entry.key() + "'" + suggestion(entry.key(), known));
            }
        }
        CommandLine running = root.getSubcommands().get(command);
        if (running != null) {
            for (OptionSpec option : running.getCommandSpec().options()) {
                Entry entry = entryFor(option);
                if (entry != null) {
                    checkValue(running, option, entry);
                }
            }
        }
    }

    /** The option's long name without its dashes: its key in the file. */
    public static String key(OptionSpec option) {
        return option.longestName().replaceFirst("^-+", "");
    }

    private static void collect(CommandLine command, Set<String> known) {
        for (OptionSpec option : command.getCommandSpec().options()) {
            if (!option.usageHelp() && !option.versionHelp() && !key(option).equals("config")) {
                known.add(key(option));
                if (command.getParent() != null) {
                    known.add(command.getCommandName() + "." + key(option));
                }
            }
        }
        command.getSubcommands().values().forEach(sub -> collect(sub, known));
    }

    private static String suggestion(String key, Set<String> known) {
        LevenshteinDistance distance = LevenshteinDistance.getDefaultInstance();
        return known.stream().min(Comparator.comparingInt((String k) -> distance.apply(key, k)))
                .filter(k -> distance.apply(key, k) <= Math.max(2, key.length() / 3))
                .map(k -> " (did you mean '" + k + "'?)").orElse("");
    }

    /**
     * Parses the value alone into a fresh instance of the command, with picocli's own conversion, and the sizes and
     * durations that the commands convert later with the parsers they will use.
     */
    private static void checkValue(CommandLine running, OptionSpec option, Entry entry) {
        CommandLine alone = new CommandLine(running.getCommandSpec().userObject().getClass());
        alone.setDefaultValueProvider(arg -> arg instanceof OptionSpec o && key(o).equals(key(option)) ? entry.value() : null);
        try {
            switch (option.paramLabel()) {
                case "SIZE" -> ByteSize.parse(entry.value());
                case "DURATION" -> ClusterSettings.parseDuration(entry.value());
                default -> { }
            }
            alone.parseArgs();
        } catch (CommandLine.MissingParameterException e) {
            return; // other options are required, not this one's value at fault
        } catch (CommandLine.ParameterException | IllegalArgumentException e) {
            throw new ConfigError(entry.where() + ": " + entry.key() + "=" + entry.value() + ": " + e.getMessage());
        }
    }
}
