package org.gridcache.zk;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.gridcache.common.settings.ClusterSettings;
import org.gridcache.common.Mbeans;

/**
 * The one {@code org.gridcache:type=Config} MXBean of a JVM, over every {@link ClusterConfig} running in it (one per
 * node; {@code gridcache standalone} runs a door and a pool, so two). Registered while at least one runs.
 */
final class ConfigManagement implements ConfigMXBean {
    static final String NAME = "type=Config";
    private static final List<ClusterConfig> CONFIGS = new CopyOnWriteArrayList<>();
    private static AutoCloseable registration;

    private ConfigManagement() {
    }

    static synchronized void add(ClusterConfig config) {
        CONFIGS.add(config);
        if (registration == null) {
            registration = Mbeans.register(NAME, ConfigMXBean.class, new ConfigManagement());
        }
    }

    static synchronized void remove(ClusterConfig config) {
        if (CONFIGS.remove(config) && CONFIGS.isEmpty() && registration != null) {
            try {
                registration.close();
            } catch (Exception e) {
                // unregistering cannot fail in a way that matters at shutdown
            }
            registration = null;
        }
    }

    private static ClusterSettings current() {
        return CONFIGS.isEmpty() ? ClusterSettings.defaults() : CONFIGS.get(0).current();
    }

    @Override
    public Map<String, String> getSettings() {
        ClusterSettings s = current();
        Map<String, String> out = new LinkedHashMap<>();
        ClusterSettings.known().keySet().forEach(key -> out.put(key, s.get(key)));
        return out;
    }

    @Override
    public Map<String, String> getExplicitSettings() {
        return new LinkedHashMap<>(current().explicitValues());
    }

    @Override
    public String getLastError() {
        String error = CONFIGS.isEmpty() ? null : CONFIGS.get(0).lastError();
        return error == null ? "" : error;
    }

    @Override
    public String reload() throws Exception {
        ClusterSettings now = ClusterSettings.defaults();
        for (ClusterConfig config : CONFIGS) {
            now = config.reloadNow();
        }
        return "reloaded: " + (now.explicitValues().isEmpty() ? "all defaults" : now.explicitValues().toString());
    }
}
