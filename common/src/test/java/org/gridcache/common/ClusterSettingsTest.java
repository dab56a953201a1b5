package org.gridcache.common;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class ClusterSettingsTest {
    @Test
    void selectionPolicyAndSiteMapHaveDefaultsAndAreParsed() {
        ClusterSettings defaults = ClusterSettings.defaults();
        assertEquals("affinity", defaults.selectionPolicy());
        assertTrue(defaults.siteMap().isEmpty());
        ClusterSettings set = ClusterSettings.of(Map.of(ClusterSettings.SELECTION_POLICY, "random",
                ClusterSettings.SITE_MAP, "127.0.0.0/8=local"));
        assertEquals("random", set.selectionPolicy());
        assertEquals(Optional.of("local"), set.siteMap().siteOf("127.0.0.2"));
    }

    @Test
    void invalidValuesAreRefusedNamingKeyAndReason() {
        IllegalArgumentException policy = assertThrows(IllegalArgumentException.class,
                () -> ClusterSettings.validate(ClusterSettings.SELECTION_POLICY, "fastest"));
        assertTrue(policy.getMessage().contains("selection.policy") && policy.getMessage().contains("least-loaded"), policy.getMessage());
        IllegalArgumentException cidr = assertThrows(IllegalArgumentException.class,
                () -> ClusterSettings.validate(ClusterSettings.SITE_MAP, "10.0.0.0/40=cern"));
        assertTrue(cidr.getMessage().contains("door.site-map") && cidr.getMessage().contains("prefix length"), cidr.getMessage());
    }
}
