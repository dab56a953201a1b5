package org.gridcache.door.auth;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Clock;
import java.time.Instant;
import java.util.List;
import org.gridcache.common.security.GridSubject;
import org.gridcache.door.MutableClock;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The policy parser, first-match semantics, and reloading of the policy file. */
class AuthzPolicyTest {
    static final GridSubject ALICE = new GridSubject("/DC=org/DC=example/CN=Alice Smith", "atlas",
            List.of("/atlas/Role=NULL/Capability=NULL", "/atlas/Role=production/Capability=NULL"), false);
    static final GridSubject BOB = new GridSubject("/DC=org/DC=example/CN=Bob", "cms", List.of("/cms"), false);
    @TempDir
    Path tmp;

    @Test
    void rulesParseWithCommentsQuotedDnsAndFqans() {
        AuthzPolicy p = AuthzPolicy.parse("""
                # a comment line

                dn:"/DC=org/DC=example/CN=Alice Smith" /atlas/private read   # spaces in a DN, trailing comment
                fqan:/atlas/Role=production /atlas/prod list,read,write
                vo:cms /cms list,read
                anonymous /public read
                authenticated / list
                """);
        assertEquals(5, p.rules().size());
        assertEquals(3, p.rules().get(0).line());
        assertTrue(p.allows(ALICE, "/atlas/private/x", AuthzPolicy.Right.READ));
        assertFalse(p.allows(ALICE, "/atlas/private/x", AuthzPolicy.Right.LIST), "first match decides: read only");
        assertTrue(p.allows(ALICE, "/atlas/prod/f", AuthzPolicy.Right.WRITE), "Role=production matches its FQAN");
        assertFalse(p.allows(BOB, "/atlas/prod/f", AuthzPolicy.Right.READ), "falls through to 'authenticated / list'");
        assertTrue(p.allows(BOB, "/cms/f", AuthzPolicy.Right.READ));
        assertTrue(p.allows(GridSubject.ANONYMOUS, "/public/f", AuthzPolicy.Right.READ));
        assertFalse(p.allows(GridSubject.ANONYMOUS, "/", AuthzPolicy.Right.LIST), "anonymous is not authenticated");
    }

    @Test
    void prefixesMatchWholeSegmentsAndNoneRefuses() {
        AuthzPolicy p = AuthzPolicy.parse("vo:atlas /atlas/secret none\nvo:atlas /atlas read\n");
        assertFalse(p.allows(ALICE, "/atlas/secret/f", AuthzPolicy.Right.READ));
        assertTrue(p.allows(ALICE, "/atlas/secrets/f", AuthzPolicy.Right.READ), "/atlas/secret does not cover /atlas/secrets");
        assertFalse(p.allows(ALICE, "/atlasx", AuthzPolicy.Right.READ), "no rule matches: refused");
    }

    @Test
    void badLinesAreRefusedWithTheirNumber() {
        for (String bad : new String[] {"dn:\"/DC=x /a read", "who /a read", "vo:atlas /a fly", "vo:atlas read", "fqan:atlas /a read",
                "vo:atlas a read", "dn:\"CN=x\" /a read", "vo:atlas /a/../b read"}) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> AuthzPolicy.parse("# ok\n" + bad),
                    "refused: " + bad);
            assertTrue(e.getMessage().startsWith("line 2:"), e.getMessage());
        }
    }

    @Test
    void theFileIsReloadedWhenItChangesAndABadEditKeepsTheLastGoodPolicy() throws IOException {
        Path file = tmp.resolve("authz.conf");
        Files.writeString(file, "vo:atlas / read\n");
        MutableClock clock = new MutableClock();
        AuthzPolicyFile policy = new AuthzPolicyFile(file, clock);
        assertTrue(policy.get().allows(ALICE, "/f", AuthzPolicy.Right.READ));

        Files.writeString(file, "vo:cms / read\n");
        Files.setLastModifiedTime(file, FileTime.from(Instant.now().plusSeconds(5)));
        assertTrue(policy.get().allows(ALICE, "/f", AuthzPolicy.Right.READ), "not looked at again within a second");
        clock.advance(AuthzPolicyFile.CHECK_MILLIS);
        assertFalse(policy.get().allows(ALICE, "/f", AuthzPolicy.Right.READ), "reloaded");
        assertTrue(policy.get().allows(BOB, "/f", AuthzPolicy.Right.READ));

        Files.writeString(file, "this is not a rule\n");
        Files.setLastModifiedTime(file, FileTime.from(Instant.now().plusSeconds(10)));
        clock.advance(AuthzPolicyFile.CHECK_MILLIS);
        assertTrue(policy.get().allows(BOB, "/f", AuthzPolicy.Right.READ), "a broken file keeps the last good policy");
    }

    @Test
    void aBadFileAtStartIsAnError() throws IOException {
        Path file = tmp.resolve("bad.conf");
        Files.writeString(file, "nonsense\n");
        IOException e = assertThrows(IOException.class, () -> new AuthzPolicyFile(file, Clock.systemUTC()));
        assertTrue(e.getMessage().contains("line 1"), e.getMessage());
    }
}
