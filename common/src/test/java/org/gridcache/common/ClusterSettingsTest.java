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

    @Test
    void typedKeysReturnParsedValuesAndTheOldAccessorsAgree() {
        ClusterSettings set = ClusterSettings.of(Map.of(ClusterSettings.SELECTION_POLICY, "Least-Loaded",
                ClusterSettings.GRIDFTP_CHECKSUM, "none", ClusterSettings.TICKET_LIFETIME, "2m", ClusterSettings.WRITE_BEHIND, "64K"));
        assertEquals(SelectionPolicy.LEAST_LOADED, set.get(ClusterSettings.Keys.SELECTION_POLICY));
        assertEquals("least-loaded", set.selectionPolicy());
        assertEquals(GridFtpChecksum.NONE, set.get(ClusterSettings.Keys.GRIDFTP_CHECKSUM));
        assertEquals(GridFtpProtection.CLEAR, set.get(ClusterSettings.Keys.GRIDFTP_PROTECTION));
        assertEquals(java.time.Duration.ofMinutes(2), set.get(ClusterSettings.Keys.TICKET_LIFETIME));
        assertEquals(64 * 1024L, set.get(ClusterSettings.Keys.WRITE_BEHIND));
        assertEquals("Least-Loaded", set.get(ClusterSettings.SELECTION_POLICY), "the string form is the value as written");
        assertEquals("60s", set.get(ClusterSettings.GRIDFTP_TIMEOUT));
        assertEquals(ClusterSettings.POLICIES, java.util.List.of("random", "least-loaded", "affinity"));
    }

    @Test
    void everyKeyIsDeclaredOnceWithAValidDefaultAndAnApplyMode() {
        assertEquals(18, ClusterSettings.known().size());
        ClusterSettings.known().forEach((key, setting) -> {
            assertEquals(key, setting.key());
            assertTrue(setting.apply() != null && !setting.description().isBlank(), key);
            ClusterSettings.validate(key, setting.defaultValue());
        });
        assertEquals("door.zk-grace", "" + ClusterSettings.Keys.ZK_GRACE, "a key reads as its name in messages");
    }

    @Test
    void refusalsKeepTheirWording() {
        IllegalArgumentException unknown = assertThrows(IllegalArgumentException.class,
                () -> ClusterSettings.of(Map.of("selection.polcy", "random")));
        assertTrue(unknown.getMessage().startsWith("unknown setting 'selection.polcy' (known: redirect.on-read, "), unknown.getMessage());
        IllegalArgumentException bad = assertThrows(IllegalArgumentException.class,
                () -> ClusterSettings.validate(ClusterSettings.TICKET_LIFETIME, "0s"));
        assertEquals("invalid value '0s' for ticket.lifetime: must be positive", bad.getMessage());
        IllegalArgumentException policy = assertThrows(IllegalArgumentException.class,
                () -> ClusterSettings.validate(ClusterSettings.SELECTION_POLICY, "fastest"));
        assertEquals("invalid value 'fastest' for selection.policy: unknown policy (known: random, least-loaded, affinity)",
                policy.getMessage());
    }
}
