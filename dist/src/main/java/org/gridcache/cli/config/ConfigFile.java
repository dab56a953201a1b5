package org.gridcache.cli.config;

import java.io.IOException;
import java.io.StringReader;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;

/**
 * A {@code --config} file: Java properties whose keys are the long options ({@code port=2880}, or {@code pool.port}
 * for one command only), each remembered with the line it is on so that a refusal can point at it. A key set twice is
 * refused: which of the two the operator meant cannot be told.
 */
public final class ConfigFile {
    /** Where a value came from: the file and the line its key is on. */
    public record Entry(String key, String value, Path file, int line) {
        public String where() {
            return file + ":" + line;
        }
    }

    private final Path file;
    private final Map<String, Entry> entries;

    private ConfigFile(Path file, Map<String, Entry> entries) {
        this.file = file;
        this.entries = Collections.unmodifiableMap(entries);
    }

    public static ConfigFile read(Path file) {
        List<String> lines;
        try {
            lines = Files.readAllLines(file);
        } catch (NoSuchFileException e) {
            throw new ConfigError("--config " + file + ": no such file");
        } catch (IOException e) {
            throw new ConfigError("--config " + file + ": cannot be read (" + e.getMessage() + ")");
        }
        Map<String, Entry> entries = new LinkedHashMap<>();
        for (int i = 0; i < lines.size(); i++) {
            int first = i;
            StringBuilder logical = new StringBuilder(lines.get(i));
            // a line ending in an odd number of backslashes goes on on the next one (java.util.Properties' rule)
            while (continues(lines.get(i)) && i + 1 < lines.size()) {
                logical.append('\n').append(lines.get(++i));
            }
            Properties one = new Properties();
            try {
                one.load(new StringReader(logical.toString()));
            } catch (IOException | IllegalArgumentException e) {
                throw new ConfigError(file + ":" + (first + 1) + ": " + e.getMessage());
            }
            for (String key : one.stringPropertyNames()) {
                Entry earlier = entries.get(key);
                if (earlier != null) {
                    throw new ConfigError(file + ":" + (first + 1) + ": '" + key + "' is set again (first on line "
                            + earlier.line() + ")");
                }
                entries.put(key, new Entry(key, one.getProperty(key).strip(), file, first + 1));
            }
        }
        return new ConfigFile(file, entries);
    }

    private static boolean continues(String line) {
        if (line.stripLeading().startsWith("#") || line.stripLeading().startsWith("!")) {
            return false;
        }
        int backslashes = 0;
        for (int i = line.length() - 1; i >= 0 && line.charAt(i) == '\\'; i--) {
            backslashes++;
        }
        return backslashes % 2 == 1;
    }

    public Path file() {
        return file;
    }

    /** The entries in the file's order. */
    public Map<String, Entry> entries() {
        return entries;
    }

    /** The entry of {@code key}, or null. */
    public Entry get(String key) {
        return entries.get(key);
    }

    /** The values as plain properties (for what reads the file before the command line is parsed). */
    public Properties properties() {
        Properties p = new Properties();
        entries.values().forEach(e -> p.setProperty(e.key(), e.value()));
        return p;
    }
}
