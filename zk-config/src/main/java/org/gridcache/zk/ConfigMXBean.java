package org.gridcache.zk;

import java.util.Map;

/**
 * JMX {@code org.gridcache:type=Config}: the cluster settings this process applies (from ZooKeeper {@code /config},
 * changed with {@code gridcache config set}) and a way to re-read them at once.
 */
public interface ConfigMXBean {
    /** Every known setting with the value in force (explicit or default). */
    Map<String, String> getSettings();

    /** Only the settings set explicitly in {@code /config}. */
    Map<String, String> getExplicitSettings();

    /** Why the last reading of {@code /config} was (partly) refused and last good values kept; empty when none. */
    String getLastError();

    /** Reads {@code /config} from ZooKeeper now and applies it; returns the explicit settings now in force. */
    String reload() throws Exception;
}
