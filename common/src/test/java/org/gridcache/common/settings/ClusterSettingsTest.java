package org.gridcache.common.settings;

import org.gridcache.common.origin.CredentialMode;
import org.gridcache.common.origin.OriginEntry;
import org.gridcache.common.settings.ClusterSettings.Keys;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class ClusterSettingsTest {
    @Test
    void selectionPolicyAndSiteMapHaveDefaultsAndAreParsed() {
        ClusterSettings defaults = ClusterSettings.defaults();
        assertEquals(SelectionPolicy.AFFINITY, defaults.get(Keys.SELECTION_POLICY));
        assertTrue(defaults.get(Keys.SITE_MAP).isEmpty());
        ClusterSettings set = ClusterSettings.of(Map.of(Keys.SELECTION_POLICY.key(), "random",
                Keys.SITE_MAP.key(), "127.0.0.0/8=local"));
        assertEquals(SelectionPolicy.RANDOM, set.get(Keys.SELECTION_POLICY));
        assertEquals(Optional.of("local"), set.get(Keys.SITE_MAP).siteOf("127.0.0.2"));
    }

    @Test
    void invalidValuesAreRefusedNamingKeyAndReason() {
        IllegalArgumentException policy = assertThrows(IllegalArgumentException.class,
                () -> ClusterSettings.validate(Keys.SELECTION_POLICY.key(), "fastest"));
        assertTrue(policy.getMessage().contains("selection.policy") && policy.getMessage().contains("least-loaded"), policy.getMessage());
        IllegalArgumentException cidr = assertThrows(IllegalArgumentException.class,
                () -> ClusterSettings.validate(Keys.SITE_MAP.key(), "10.0.0.0/40=cern"));
        assertTrue(cidr.getMessage().contains("door.site-map") && cidr.getMessage().contains("prefix length"), cidr.getMessage());
    }

    @Test
    void gridftpSettingsHaveDefaultsAndAreChecked() {
        ClusterSettings defaults = ClusterSettings.defaults();
        assertEquals(1, defaults.get(Keys.GRIDFTP_STREAMS));
        assertTrue(defaults.get(Keys.GRIDFTP_DCAU));
        assertEquals(GridFtpProtection.CLEAR, defaults.get(Keys.GRIDFTP_PROTECTION));
        assertEquals(GridFtpChecksum.ADLER32, defaults.get(Keys.GRIDFTP_CHECKSUM));
        ClusterSettings set = ClusterSettings.of(Map.of(Keys.GRIDFTP_STREAMS.key(), "4", Keys.GRIDFTP_PROTECTION.key(), "Private",
                Keys.GRIDFTP_CHECKSUM.key(), "MD5", Keys.GRIDFTP_DCAU.key(), "false"));
        assertEquals(4, set.get(Keys.GRIDFTP_STREAMS));
        assertEquals(GridFtpProtection.PRIVATE, set.get(Keys.GRIDFTP_PROTECTION));
        assertEquals(GridFtpChecksum.MD5, set.get(Keys.GRIDFTP_CHECKSUM));
        for (String[] bad : new String[][] {{Keys.GRIDFTP_STREAMS.key(), "0"}, {Keys.GRIDFTP_STREAMS.key(), "65"},
                {Keys.GRIDFTP_PROTECTION.key(), "secret"}, {Keys.GRIDFTP_CHECKSUM.key(), "crc32"}, {Keys.GRIDFTP_DCAU.key(), "maybe"}}) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> ClusterSettings.validate(bad[0], bad[1]));
            assertTrue(e.getMessage().contains(bad[0]), e.getMessage());
        }
    }

    @Test
    void anEmptyOrOverlongDurationIsRefusedInOneLine() {
        // found by SettingValuesFuzzTest: "" threw StringIndexOutOfBoundsException, a huge count of hours ArithmeticException
        for (String bad : new String[] {"", "  ", "9223372036854775807h", "9223372036854775807m"}) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                    () -> ClusterSettings.validate(Keys.TICKET_LIFETIME.key(), bad), "'" + bad + "'");
            assertTrue(e.getMessage().contains("expected a duration"), e.getMessage());
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
    void typedKeysReturnValuesParsedOnceAndTheStringFormIsTheValueAsWritten() {
        ClusterSettings set = ClusterSettings.of(Map.of(Keys.SELECTION_POLICY.key(), "Least-Loaded",
                Keys.GRIDFTP_CHECKSUM.key(), "none", Keys.TICKET_LIFETIME.key(), "2m", Keys.WRITE_BEHIND.key(), "64K"));
        assertEquals(SelectionPolicy.LEAST_LOADED, set.get(Keys.SELECTION_POLICY));
        assertEquals(GridFtpChecksum.NONE, set.get(Keys.GRIDFTP_CHECKSUM));
        assertEquals(GridFtpProtection.CLEAR, set.get(Keys.GRIDFTP_PROTECTION));
        assertEquals(java.time.Duration.ofMinutes(2), set.get(Keys.TICKET_LIFETIME));
        assertEquals(64 * 1024L, set.get(Keys.WRITE_BEHIND));
        assertEquals("Least-Loaded", set.get(Keys.SELECTION_POLICY.key()), "the string form is the value as written");
        assertEquals("60s", set.get(Keys.GRIDFTP_TIMEOUT.key()));
        assertEquals(SelectionPolicy.labels(), java.util.List.of("random", "least-loaded", "affinity"));
        assertEquals(StorageShares.ORIGIN, set.get(Keys.SRR_SHARES));
        assertEquals(StorageShares.VO, ClusterSettings.of(Map.of(Keys.SRR_SHARES.key(), "VO")).get(Keys.SRR_SHARES));
        IllegalArgumentException e = org.junit.jupiter.api.Assertions.assertThrows(IllegalArgumentException.class,
                () -> ClusterSettings.validate(Keys.SRR_SHARES.key(), "group"));
        assertEquals("invalid value 'group' for srr.shares: expected origin or vo", e.getMessage());
    }

    @Test
    void everyKeyIsDeclaredOnceWithAValidDefaultAndAnApplyMode() {
        assertEquals(38, ClusterSettings.known().size());
        ClusterSettings defaults = ClusterSettings.defaults();
        assertEquals(Duration.ofSeconds(20), defaults.get(Keys.DOOR_HEADER_TIMEOUT)); // Apache mod_reqtimeout's header=20
        assertEquals(Duration.ofSeconds(20), defaults.get(Keys.POOL_HEADER_TIMEOUT));
        assertEquals(Duration.ofSeconds(60), defaults.get(Keys.POOL_SEND_TIMEOUT));
        ClusterSettings.known().forEach((key, setting) -> {
            assertEquals(key, setting.key());
            assertTrue(setting.apply() != null && !setting.description().isBlank(), key);
            ClusterSettings.validate(key, setting.defaultValue());
        });
        assertEquals("door.zk-grace", "" + ClusterSettings.Keys.ZK_GRACE, "a key reads as its name in messages");
    }

    @Test
    void tpcAllowedHostsListsNothingByDefaultAndRefusesWhatIsNoBlockNorName() {
        assertEquals("", ClusterSettings.defaults().get(Keys.TPC_ALLOWED_HOSTS).toString());
        assertEquals("127.0.0.1/32,storage.site", ClusterSettings.of(Map.of(Keys.TPC_ALLOWED_HOSTS.key(), "127.0.0.1, storage.site"))
                .get(Keys.TPC_ALLOWED_HOSTS).toString());
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> ClusterSettings.validate(Keys.TPC_ALLOWED_HOSTS.key(), "10.0.0.1/8"));
        assertTrue(e.getMessage().contains("tpc.allowed-hosts") && e.getMessage().contains("host bits set"), e.getMessage());
    }

    @Test
    void aRetiredKeyStillStoredIsIgnoredButCannotBeSetAgain() {
        ClusterSettings s = ClusterSettings.of(Map.of("pool.fill-writers", "idle", Keys.TICKET_LIFETIME.key(), "30s"));
        assertEquals(Duration.ofSeconds(30), s.get(Keys.TICKET_LIFETIME), "the other settings apply");
        assertEquals(Map.of(Keys.TICKET_LIFETIME.key(), "30s"), s.explicitValues(), "the retired key is not in force");
        assertTrue(ClusterSettings.retired("pool.fill-writers").contains("normal priority"));
        assertTrue(ClusterSettings.of(Map.of("pool.direct-writes", "8M")).explicitValues().isEmpty());
        assertTrue(ClusterSettings.of(Map.of("pool.sparse-min-size", "16M")).explicitValues().isEmpty());
        assertEquals(null, ClusterSettings.retired(Keys.TICKET_LIFETIME.key()));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> ClusterSettings.validate("pool.fill-writers", "normal"));
        assertTrue(e.getMessage().contains("was removed"), e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> ClusterSettings.of(Map.of("pool.fill-writer", "idle")),
                "a key never known is still refused");
    }

    @Test
    void aBlockSizeIs128kTo1MInPages() {
        assertEquals(128 * 1024L, ClusterSettings.defaults().get(Keys.BLOCK_SIZE));
        assertEquals(1 << 20, ClusterSettings.of(Map.of(Keys.BLOCK_SIZE.key(), "1M")).get(Keys.BLOCK_SIZE));
        for (String bad : new String[] {"64k", "2M", "130000", "many"}) {
            assertThrows(IllegalArgumentException.class, () -> ClusterSettings.validate(Keys.BLOCK_SIZE.key(), bad), bad);
        }
        assertEquals(0, ClusterSettings.defaults().get(Keys.BLOCK_PREFETCH), "prefetch is off by default");
    }

    @Test
    void refusalsKeepTheirWording() {
        IllegalArgumentException unknown = assertThrows(IllegalArgumentException.class,
                () -> ClusterSettings.of(Map.of("selection.polcy", "random")));
        assertTrue(unknown.getMessage().startsWith("unknown setting 'selection.polcy' (known: redirect.on-read, "), unknown.getMessage());
        IllegalArgumentException bad = assertThrows(IllegalArgumentException.class,
                () -> ClusterSettings.validate(Keys.TICKET_LIFETIME.key(), "0s"));
        assertEquals("invalid value '0s' for ticket.lifetime: must be positive", bad.getMessage());
        IllegalArgumentException years = assertThrows(IllegalArgumentException.class,
                () -> ClusterSettings.validate(Keys.TICKET_LIFETIME.key(), "3650h"));
        assertEquals("invalid value '3650h' for ticket.lifetime: must be at most 600s", years.getMessage(), "a hard cap, whatever /config says");
        ClusterSettings.validate(Keys.TICKET_LIFETIME.key(), "10m");
        IllegalArgumentException policy = assertThrows(IllegalArgumentException.class,
                () -> ClusterSettings.validate(Keys.SELECTION_POLICY.key(), "fastest"));
        assertEquals("invalid value 'fastest' for selection.policy: unknown policy (known: random, least-loaded, affinity)",
                policy.getMessage());
    }
}
