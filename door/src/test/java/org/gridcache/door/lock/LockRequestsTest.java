package org.gridcache.door.lock;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import org.gridcache.door.exchange.DoorException;
import org.gridcache.zk.lock.DavLock;
import org.junit.jupiter.api.Test;

class LockRequestsTest {
    private static byte[] xml(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    @Test
    void anExclusiveWriteLockWithItsOwnerAsSent() {
        LockRequest r = LockRequests.parse(xml("<?xml version=\"1.0\"?><D:lockinfo xmlns:D=\"DAV:\"><D:lockscope><D:exclusive/></D:lockscope>"
                + "<D:locktype><D:write/></D:locktype><D:owner><D:href>http://example.org/~alice</D:href></D:owner></D:lockinfo>")).orElseThrow();
        assertTrue(r.exclusive());
        assertTrue(r.ownerXml().contains("http://example.org/~alice"), r.ownerXml());
        assertTrue(r.ownerXml().startsWith("<D:href"), r.ownerXml());
        LockRequest shared = LockRequests.parse(xml("<lockinfo xmlns=\"DAV:\"><lockscope><shared/></lockscope><locktype><write/></locktype>"
                + "<owner>litmus test suite</owner></lockinfo>")).orElseThrow();
        assertFalse(shared.exclusive());
        assertEquals("litmus test suite", shared.ownerXml());
    }

    @Test
    void anEmptyBodyIsARefresh() {
        assertTrue(LockRequests.parse(new byte[0]).isEmpty());
    }

    @Test
    void externalEntitiesAndBadBodiesAre400() {
        String xxe = "<?xml version=\"1.0\"?><!DOCTYPE lockinfo [<!ENTITY x SYSTEM \"file:///etc/passwd\">]>"
                + "<D:lockinfo xmlns:D=\"DAV:\"><D:lockscope><D:exclusive/></D:lockscope><D:locktype><D:write/></D:locktype>"
                + "<D:owner>&x;</D:owner></D:lockinfo>";
        DoorException e = assertThrows(DoorException.class, () -> LockRequests.parse(xml(xxe)));
        assertEquals(400, e.status());
        assertEquals("malformed LOCK body (document type declarations are refused)", e.getMessage());
        assertEquals(400, assertThrows(DoorException.class, () -> LockRequests.parse(xml("<D:lockinfo xmlns:D=\"DAV:\">"))).status());
        assertEquals(400, assertThrows(DoorException.class, () -> LockRequests.parse(xml("<D:propfind xmlns:D=\"DAV:\"/>"))).status());
        assertEquals("only write locks exist (DAV:locktype)", assertThrows(DoorException.class, () -> LockRequests.parse(xml(
                "<D:lockinfo xmlns:D=\"DAV:\"><D:lockscope><D:exclusive/></D:lockscope><D:locktype><D:read/></D:locktype></D:lockinfo>")))
                .getMessage());
        assertEquals(413, assertThrows(DoorException.class, () -> LockRequests.parse(new byte[LockRequests.MAX_BODY + 1])).status());
    }

    @Test
    void timeoutsAreCappedAndInfiniteMeansTheCap() {
        Duration fallback = Duration.ofMinutes(10);
        Duration max = Duration.ofHours(1);
        assertEquals(Duration.ofSeconds(600), LockTimeouts.parse("Second-600", fallback, max));
        assertEquals(max, LockTimeouts.parse("Infinite, Second-4100000000", fallback, max));
        assertEquals(max, LockTimeouts.parse("Second-4100000000", fallback, max));
        assertEquals(Duration.ofSeconds(30), LockTimeouts.parse("Second-x, Second-30", fallback, max));
        assertEquals(fallback, LockTimeouts.parse(null, fallback, max));
        assertEquals(fallback, LockTimeouts.parse("Second-0", fallback, max));
        assertEquals("Second-600", LockTimeouts.header(600));
    }

    @Test
    void theIfHeaderSubmitsTokensButNotThoseUnderNot() {
        assertEquals(Set.of("opaquelocktoken:a"), IfHeader.parse("(<opaquelocktoken:a>)").submittedTokens());
        assertEquals(Set.of("opaquelocktoken:a", "opaquelocktoken:b"), IfHeader.parse(
                "<http://door/f> (<opaquelocktoken:a> [\"etag\"]) (Not <DAV:no-lock> <opaquelocktoken:b>)").submittedTokens());
        assertEquals(Set.of(), IfHeader.parse("(Not <opaquelocktoken:a>)").submittedTokens());
        assertEquals(Set.of(), IfHeader.parse(null).submittedTokens());
        assertEquals(400, assertThrows(DoorException.class, () -> IfHeader.parse("garbage")).status(), "a malformed header submits nothing");
    }

    @Test
    void lockDiscoveryNamesScopeDepthTimeoutTokenAndRoot() {
        DavLock lock = new DavLock("opaquelocktoken:0f8fad5b-d9cb-469f-a165-70867728950e", "/a&b", true, true,
                "<D:href xmlns:D=\"DAV:\">alice</D:href>", "/CN=Alice", 600, 0);
        String xml = LockDiscovery.lockAnswer(lock, "/a&amp;b".replace("&amp;", "&"));
        assertTrue(xml.contains("<D:lockscope><D:exclusive/></D:lockscope><D:depth>infinity</D:depth>"), xml);
        assertTrue(xml.contains("<D:timeout>Second-600</D:timeout>"), xml);
        assertTrue(xml.contains("<D:locktoken><D:href>opaquelocktoken:0f8fad5b-d9cb-469f-a165-70867728950e</D:href></D:locktoken>"), xml);
        assertTrue(xml.contains("<D:lockroot><D:href>/a&amp;b</D:href></D:lockroot>"), xml);
        assertTrue(xml.contains("<D:owner><D:href xmlns:D=\"DAV:\">alice</D:href></D:owner>"), xml);
    }

    @Test
    void theIfHeaderIsReadAsTaggedAndUntaggedListsOfConditions() {
        IfHeader tagged = IfHeader.parse("<http://door/a> (<opaquelocktoken:x> [W/\"e1\"]) (Not <DAV:no-lock>) <http://door/b> ([\"e2\"])");
        assertEquals(3, tagged.clauses().size());
        assertEquals("http://door/a", tagged.clauses().get(1).resource(), "a tag holds until the next one");
        assertEquals(new IfHeader.Condition(false, null, "W/\"e1\""), tagged.clauses().get(0).conditions().get(1));
        assertEquals(new IfHeader.Condition(true, "DAV:no-lock", null), tagged.clauses().get(1).conditions().get(0));
        assertEquals("http://door/b", tagged.clauses().get(2).resource());
        assertFalse(IfHeader.parse(null).present());
        for (String bad : List.of("(<a>", "()", "(x)", "([e])", "<http://door/a>", "(<a>) <http://door/b> (<c>)", "junk")) {
            DoorException e = assertThrows(DoorException.class, () -> IfHeader.parse(bad), bad);
            assertEquals(400, e.status(), bad);
            assertTrue(e.getMessage().startsWith("malformed If header: "), e.getMessage());
        }
        assertEquals(400, assertThrows(DoorException.class, () -> IfHeader.parse("(" + "<a>".repeat(6000) + ")")).status());
    }
}
