package org.gridcache.common.settings;

import static org.junit.jupiter.api.Assertions.assertNotNull;

import com.code_intelligence.jazzer.api.FuzzedDataProvider;
import com.code_intelligence.jazzer.junit.FuzzTest;
import java.util.List;

/**
 * Cluster settings (issue 15, R8): any value for any setting is parsed or refused with IllegalArgumentException,
 * the one-line error `gridcache config set` prints — never another exception, which would leave /config unreadable
 * to the nodes that watch it.
 */
class SettingValuesFuzzTest {
    private static final List<ClusterSettings.Setting<?>> SETTINGS = List.copyOf(ClusterSettings.known().values());

    @FuzzTest
    void everyValueIsParsedOrRefusedWithAReason(FuzzedDataProvider data) {
        ClusterSettings.Setting<?> setting = SETTINGS.get(data.consumeInt(0, SETTINGS.size() - 1));
        String value = data.consumeRemainingAsString();
        try {
            assertNotNull(setting.type().parse(value), setting.key() + "=" + value);
        } catch (IllegalArgumentException refused) {
            // the operator's error, said in one line
        }
    }
}
