package org.gridcache.common.origin;

import org.gridcache.common.Json;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

class CredentialModeTest {
    @Test
    void noneUserAndServiceAreReadInAnyCaseAndNullIsNone() {
        assertEquals(CredentialMode.USER, CredentialMode.parse(" User "));
        assertEquals(CredentialMode.SERVICE, CredentialMode.parse("service"));
        assertEquals(CredentialMode.NONE, CredentialMode.parse(null));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> CredentialMode.parse("root"));
        assertTrue(e.getMessage().contains("none, user, service or token"), e.getMessage());
        assertEquals(CredentialMode.TOKEN, CredentialMode.parse("Token"));
        assertEquals("token", CredentialMode.TOKEN.id());
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

    @Test
    void aTokenModePresentsTheUsersTokenAndNeedsIt() throws Exception {
        assertEquals("alice's token", CredentialMode.TOKEN.choose("no certificate", "host", () -> "alice's token", "pool", "alice"));
        CredentialMode.MissingCredential missing = assertThrows(CredentialMode.MissingCredential.class,
                () -> CredentialMode.TOKEN.choose(null, "host", () -> null, "pool", "token:alice@https://iss"));
        assertEquals(401, missing.status());
        assertTrue(missing.getMessage().contains("no bearer token of token:alice@https://iss"), missing.getMessage());
    }

    @Test
    void aTokenMountIsForHttpAndHttpsOriginsOnly() {
        assertEquals(CredentialMode.TOKEN, OriginEntry.of("se", "/se", "https://se.example.org/data", "token").credentialMode());
        assertEquals(CredentialMode.TOKEN, OriginEntry.of("se", "/se", "http://se.example.org/data", "token").credentialMode());
        for (String url : List.of("gsiftp://se.example.org/data", "file:///srv/data")) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> OriginEntry.of("se", "/se", url, "token"));
            assertTrue(e.getMessage().contains("credential token needs an http:// or https:// origin"), e.getMessage());
        }
        OriginEntry e = OriginEntry.of("se", "/se", "https://se.example.org/data", "token");
        assertEquals(e, Json.read(Json.string(e).getBytes(java.nio.charset.StandardCharsets.UTF_8), OriginEntry.class));
    }
}
