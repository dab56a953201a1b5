package org.gridcache.cli;

import java.util.HashSet;
import java.util.List;
import java.util.Properties;
import java.util.Set;
import picocli.CommandLine;
import picocli.CommandLine.Model.ArgSpec;
import picocli.CommandLine.Model.OptionSpec;

/**
 * Defaults from the {@code --config} file: an option {@code --capacity} of {@code gridcache pool} is read from the
 * key {@code pool.capacity}, else from {@code capacity}. So one file can configure several commands.
 */
final class PropertiesDefaults implements CommandLine.IDefaultValueProvider {
    private final Properties properties;

    PropertiesDefaults(Properties properties) {
        this.properties = properties;
    }

    @Override
    public String defaultValue(ArgSpec arg) {
        if (!(arg instanceof OptionSpec option) || option.longestName().equals("--config")) {
            return null;
        }
        String key = option.longestName().replaceFirst("^-+", "");
        String command = option.command() != null ? option.command().name() : null;
        String qualified = command != null ? properties.getProperty(command + "." + key) : null;
        return qualified != null ? qualified : properties.getProperty(key);
    }

    /**
     * The keys of the file that no option of any command reads (a misspelling, or an option a newer version
     * dropped, such as {@code ticket-key}): without this they would be ignored without a word.
     */
    List<String> unknownKeys(CommandLine root) {
        Set<String> options = new HashSet<>();
        Set<String> commands = new HashSet<>();
        collect(root, options, commands);
        return properties.stringPropertyNames().stream().sorted().filter(key -> {
            int dot = key.indexOf('.');
            String option = dot > 0 && commands.contains(key.substring(0, dot)) ? key.substring(dot + 1) : key;
            return !options.contains(option);
        }).toList();
    }

    private static void collect(CommandLine command, Set<String> options, Set<String> commands) {
        commands.add(command.getCommandName());
        for (OptionSpec option : command.getCommandSpec().options()) {
            options.add(option.longestName().replaceFirst("^-+", ""));
        }
        command.getSubcommands().values().forEach(sub -> collect(sub, options, commands));
    }
}
