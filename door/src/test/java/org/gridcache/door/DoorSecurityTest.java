package org.gridcache.door;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;

class DoorSecurityTest {
    @Test
    void tokenIssuersNeedHttps() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> DoorSecurity.plain(null).withTokenIssuers(Path.of("issuers.json")));
        assertEquals("--token-issuers needs HTTPS: bearer tokens are accepted over HTTPS only", e.getMessage());
        assertEquals(null, DoorSecurity.plain(null).withTokenIssuers(null).tokenIssuers());
    }
}
