package org.gridcache.door.namespace;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import eu.emi.security.authn.x509.X509Credential;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.IntStream;
import org.apache.curator.framework.CuratorFramework;
import org.gridcache.common.GridPath;
import org.gridcache.common.origin.OriginEntry;
import org.gridcache.common.security.GridCredentials;
import org.gridcache.common.security.GridSubject;
import org.gridcache.common.security.TestPki;
import org.gridcache.door.exchange.DoorException;
import org.gridcache.zk.EmbeddedZooKeeper;
import org.gridcache.zk.MountTable;
import org.gridcache.zk.Zk;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Who the door is towards each origin for a subject, and the cache keyed by it: origins mounted {@code credential user}
 * are asked with the delegation of the subject's session, and what one identity was told is never shown to another;
 * origins the door reads as itself are asked once for everyone; the cache is bounded in bytes.
 */
class NamespaceTest {
    private static final GridSubject ALICE = new GridSubject("/DC=org/DC=example/CN=Alice", "atlas", List.of("/atlas"), false);
    private static final GridSubject ALICE_AGAIN = new GridSubject("/DC=org/DC=example/CN=Alice", "atlas", List.of("/atlas"), true);
    private static final GridSubject ALICE_CMS = new GridSubject("/DC=org/DC=example/CN=Alice", "cms", List.of("/cms"), false);
    private static final GridSubject BOB = new GridSubject("/DC=org/DC=example/CN=Bob", "atlas", List.of("/atlas"), false);
    private static final String DELEGATE_TO = "https://door.example.org/.gridcache/delegation";
    @TempDir
    Path tmp;
    private EmbeddedZooKeeper server;
    private CuratorFramework zk;
    private MountTable mounts;
    private final Recording gridftp = new Recording();
    private final Recording webdav = new Recording();
    private Namespace namespace;

    /**
     * Answers every path with a file and every directory with one child named after the identity that asked (as an
     * origin shows each user what their rights allow), and records who asked for what.
     */
    private static final class Recording implements OriginLister {
        final List<String> calls = new ArrayList<>();
        int children = 1;

        @Override
        public synchronized NamespaceEntry stat(GridSubject subject, OriginIdentity as, OriginEntry origin, String path) {
            calls.add("stat " + path + " as " + who(as));
            return new NamespaceEntry(path, GridPath.name(path), false, 1, -1, null, null);
        }

        @Override
        public synchronized List<NamespaceEntry> list(GridSubject subject, OriginIdentity as, OriginEntry origin, String dir) {
            calls.add("list " + dir + " as " + who(as));
            return IntStream.range(0, children).mapToObj(i -> "f-" + who(as) + (i == 0 ? "" : "-" + i))
                    .map(name -> new NamespaceEntry(GridPath.child(dir, name), name, false, 1, -1, null, null)).toList();
        }

        private static String who(OriginIdentity as) {
            return as.delegated() ? as.delegationId() : "door";
        }
    }

    /** Alice's session with /atlas and Bob's have a delegation each; Alice's /cms session has none. */
    private static Optional<OriginIdentity> delegationOf(GridSubject subject, X509Credential credential) {
        Instant until = Instant.parse("2030-01-01T00:00:00Z");
        if (subject.dn().equals(ALICE.dn()) && subject.fqans().equals(List.of("/atlas"))) {
            return Optional.of(OriginIdentity.delegation(subject.dn(), "alice-atlas", until, credential));
        }
        if (subject.dn().equals(BOB.dn())) {
            return Optional.of(OriginIdentity.delegation(subject.dn(), "bob", until, credential));
        }
        return Optional.empty();
    }

    @BeforeEach
    void start() throws Exception {
        server = EmbeddedZooKeeper.start(tmp.resolve("zk"), "127.0.0.1", 0);
        zk = Zk.connect(server.connectString());
        MountTable.put(zk, OriginEntry.of("grid", "/grid", "gsiftp://gridftp.example.org/data", "user"));
        MountTable.put(zk, OriginEntry.of("vo", "/vo", "https://dav.example.org/vo", "user"));
        MountTable.put(zk, OriginEntry.of("dav", "/dav", "http://dav.example.org/dav"));
        mounts = new MountTable(zk).start(Duration.ofSeconds(20));
        X509Credential credential = GridCredentials.loadProxy(TestPki.get().resolve("proxies/alice.pem"));
        namespace = namespace(new OriginIdentities(s -> delegationOf(s, credential), () -> DELEGATE_TO), 64 << 20);
    }

    private Namespace namespace(OriginIdentities identities, long cacheBytes) {
        return new Namespace(mounts, new Recording(), webdav, gridftp, identities, Duration.ofMinutes(1), cacheBytes);
    }

    @AfterEach
    void stop() throws Exception {
        mounts.close();
        zk.close();
        server.close();
    }

    @Test
    void anOriginReadAsTheUserIsAskedWithEachSessionsDelegationAndItsAnswersAreCachedPerDelegation() {
        namespace.stat(ALICE, "/grid/x");
        namespace.stat(ALICE_AGAIN, "/grid/x");
        namespace.stat(BOB, "/grid/x");
        namespace.list(ALICE, "/grid/d");
        namespace.list(BOB, "/grid/d");
        namespace.list(BOB, "/grid/d");
        assertEquals(List.of("stat /grid/x as alice-atlas", "stat /grid/x as bob", "list /grid/d as alice-atlas",
                "list /grid/d as bob"), gridftp.calls, "a second session with the same delegation shares its answers");
        namespace.stat(ALICE, "/grid/d/f-alice-atlas");
        assertEquals(4, gridftp.calls.size(), "a child of a listing made with the same delegation is answered from it");
    }

    @Test
    void twoUsersSeeOnlyWhatTheOriginListsToEach() {
        assertEquals(List.of("f-alice-atlas"), names(namespace.list(ALICE, "/vo/d")));
        assertEquals(List.of("f-bob"), names(namespace.list(BOB, "/vo/d")), "not Alice's cached view");
        assertEquals(List.of("f-alice-atlas"), names(namespace.list(ALICE, "/vo/d")));
        assertEquals(404, assertThrows(DoorException.class, () -> namespace.stat(BOB, "/vo/d/f-alice-atlas")).status(),
                "a name only Alice was shown is absent for Bob (his own listing answers)");
        assertEquals("f-bob", namespace.stat(BOB, "/vo/d/f-bob").name());
        assertEquals(2, webdav.calls.size(), "both answered from each one's listing: " + webdav.calls);
    }

    @Test
    void aSessionWithoutADelegationForItsAttributesIsAskedToDelegateAndTheOriginIsNotAsked() {
        namespace.list(ALICE, "/vo/d");
        for (GridSubject who : List.of(ALICE_CMS, GridSubject.ANONYMOUS, GridSubject.of("/DC=org/DC=example/CN=Carol"))) {
            DoorException e = assertThrows(DoorException.class, () -> namespace.list(who, "/vo/d"), who.toString());
            assertEquals(401, e.status());
            assertEquals(Map.of("X-Delegate-To", DELEGATE_TO), e.headers());
            assertThrows(DoorException.class, () -> namespace.stat(who, "/vo/d/f-alice-atlas"));
        }
        assertTrue(assertThrows(DoorException.class, () -> namespace.stat(ALICE_CMS, "/grid/x")).reason().contains("/cms"),
                "the reason names the session's attributes");
        assertEquals(List.of("list /vo/d as alice-atlas"), webdav.calls);
        assertEquals(List.of(), gridftp.calls);
    }

    @Test
    void aDoorWithoutDelegationsRefusesUserOriginsWith403() {
        Namespace plain = namespace(OriginIdentities.NONE, 1 << 20);
        assertEquals(403, assertThrows(DoorException.class, () -> plain.stat(ALICE, "/vo/x")).status());
        assertEquals("x", plain.stat(ALICE, "/dav/x").name());
    }

    @Test
    void anOriginTheDoorReadsAsItselfIsAskedOnceForEveryone() {
        namespace.stat(ALICE, "/dav/x");
        namespace.stat(BOB, "/dav/x");
        namespace.stat(GridSubject.ANONYMOUS, "/dav/x");
        namespace.list(BOB, "/dav/d");
        namespace.list(ALICE_CMS, "/dav/d");
        assertEquals(List.of("stat /dav/x as door", "list /dav/d as door"), webdav.calls);
    }

    @Test
    void theCacheStaysWithinItsBytesAndABoundLoweredLiveEvictsAtOnce() {
        Namespace small = namespace(OriginIdentities.NONE, 256 << 10);
        webdav.children = 200; // ~70 kB a listing by the estimate
        for (int i = 0; i < 40; i++) {
            assertEquals(200, small.list(ALICE, "/dav/d" + i).size());
        }
        long held = small.cachedBytes();
        assertTrue(held > 0 && held <= 256 << 10, "held " + held);
        small.setCacheBytes(16 << 10);
        assertTrue(small.cachedBytes() <= 16 << 10, "held " + small.cachedBytes());
        int asked = webdav.calls.size();
        small.list(ALICE, "/dav/d39");
        assertEquals(asked + 1, webdav.calls.size(), "a listing larger than the bound is not kept");
    }

    private static List<String> names(List<NamespaceEntry> entries) {
        return entries.stream().map(NamespaceEntry::name).toList();
    }
}
