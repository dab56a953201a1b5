package org.gridcache.cli;

import java.util.Properties;
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
}
