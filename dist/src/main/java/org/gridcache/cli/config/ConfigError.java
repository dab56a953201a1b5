package org.gridcache.cli.config;

/**
 * A configuration the process refuses to start with: the message is the one line the operator reads, naming the file
 * and line (or the flag) and what is wrong.
 */
public final class ConfigError extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public ConfigError(String message) {
        super(message, null, false, false);
    }
}
