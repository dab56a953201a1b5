package org.gridcache.common;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class CredentialModeTest {
    @Test
    void noneUserAndServiceAreReadInAnyCaseAndNullIsNone() {
        assertEquals(CredentialMode.USER, CredentialMode.parse(" User "));
        assertEquals(CredentialMode.SERVICE, CredentialMode.parse("service"));
        assertEquals(CredentialMode.NONE, CredentialMode.parse(null));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> CredentialMode.parse("root"));
        assertTrue(e.getMessage().contains("none, user or service"), e.getMessage());
    }

    @Test
    void eachModePresentsItsOwnCredential() throws Exception {
        assertNull(CredentialMode.NONE.choose(null, "host", () -> "alice's proxy", "pool", "alice"));
        assertEquals("host", CredentialMode.SERVICE.choose(null, "host", () -> "alice's proxy", "pool", "alice"));
        assertEquals("alice's proxy", CredentialMode.USER.choose(null, "host", () -> "alice's proxy", "pool", "alice"));
    }

    @Test
    void aMissingDelegationIs401NamingTheSubjectAndAMissingHostCredential502() {
        CredentialMode.MissingCredential user = assertThrows(CredentialMode.MissingCredential.class,
                () -> CredentialMode.USER.choose(null, "host", () -> null, "pool", "CN=Alice"));
        assertEquals(401, user.status());
        assertTrue(user.getMessage().contains("CN=Alice"), user.getMessage());
        CredentialMode.MissingCredential host = assertThrows(CredentialMode.MissingCredential.class,
                () -> CredentialMode.SERVICE.choose(null, null, () -> "proxy", "door", "CN=Alice"));
        assertEquals(502, host.status());
        assertTrue(host.getMessage().contains("this door has no host credential"), host.getMessage());
    }

    @Test
    void originEntriesAndTicketsKeepTheWordInJson() {
        OriginEntry e = OriginEntry.of("se", "/se", "gsiftp://se.example.org/data", "service");
        String json = Json.string(e);
        assertTrue(json.contains("\"credential\":\"service\""), json);
        assertEquals(e, Json.read(json.getBytes(java.nio.charset.StandardCharsets.UTF_8), OriginEntry.class));
    }
}
