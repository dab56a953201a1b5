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

    @Test
    void gridftpSettingsHaveDefaultsAndAreChecked() {
        ClusterSettings defaults = ClusterSettings.defaults();
        assertEquals(1, defaults.gridftpStreams());
        assertTrue(defaults.gridftpDcau());
        assertEquals("clear", defaults.gridftpProtection());
        assertEquals("adler32", defaults.gridftpChecksum());
        ClusterSettings set = ClusterSettings.of(Map.of(ClusterSettings.GRIDFTP_STREAMS, "4", ClusterSettings.GRIDFTP_PROTECTION, "Private",
                ClusterSettings.GRIDFTP_CHECKSUM, "MD5", ClusterSettings.GRIDFTP_DCAU, "false"));
        assertEquals(4, set.gridftpStreams());
        assertEquals("private", set.gridftpProtection());
        assertEquals("md5", set.gridftpChecksum());
        for (String[] bad : new String[][] {{ClusterSettings.GRIDFTP_STREAMS, "0"}, {ClusterSettings.GRIDFTP_STREAMS, "65"},
                {ClusterSettings.GRIDFTP_PROTECTION, "secret"}, {ClusterSettings.GRIDFTP_CHECKSUM, "crc32"}, {ClusterSettings.GRIDFTP_DCAU, "maybe"}}) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> ClusterSettings.validate(bad[0], bad[1]));
            assertTrue(e.getMessage().contains(bad[0]), e.getMessage());
        }
    }

    @Test
    void gsiftpOriginsAreReadWithACredential() {
        OriginEntry e = OriginEntry.of("se", "/se", "gsiftp://se.example.org:2811/data/", null);
        assertEquals("gsiftp", e.protocol());
        assertEquals(CredentialMode.USER, e.credentialMode());
        assertEquals("gsiftp://se.example.org:2811/data/a%20b.bin", e.urlOf("/se/a b.bin"));
        assertEquals(CredentialMode.SERVICE, OriginEntry.of("se", "/se", "gsiftp://se/data", "service").credentialMode());
        assertThrows(IllegalArgumentException.class, () -> OriginEntry.of("se", "/se", "gsiftp://se/data", "none"));
        assertThrows(IllegalArgumentException.class, () -> OriginEntry.of("se", "/se", "gsiftp:///data", null));
        assertThrows(IllegalArgumentException.class, () -> OriginEntry.of("se", "/se", "ftp://se/data", null));
    }
}
