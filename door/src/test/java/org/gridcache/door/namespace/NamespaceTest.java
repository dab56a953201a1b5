package org.gridcache.door.namespace;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.apache.curator.framework.CuratorFramework;
import org.gridcache.common.GridPath;
import org.gridcache.common.OriginEntry;
import org.gridcache.common.security.GridSubject;
import org.gridcache.zk.EmbeddedZooKeeper;
import org.gridcache.zk.MountTable;
import org.gridcache.zk.Zk;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The subject each lookup is made for reaches the origin lister, and answers given per subject are cached per subject. */
class NamespaceTest {
    private static final GridSubject ALICE = new GridSubject("/DC=org/DC=example/CN=Alice", "atlas", List.of("/atlas"), false);
    private static final GridSubject BOB = new GridSubject("/DC=org/DC=example/CN=Bob", "cms", List.of("/cms"), false);
    @TempDir
    Path tmp;
    private EmbeddedZooKeeper server;
    private CuratorFramework zk;
    private MountTable mounts;
    private final Recording gridftp = new Recording();
    private final Recording webdav = new Recording();
    private Namespace namespace;

    /** Answers every path with a file (every directory with one child) and records who asked for what. */
    private static final class Recording implements OriginLister {
        final List<String> calls = new ArrayList<>();

        @Override
        public synchronized NamespaceEntry stat(GridSubject subject, OriginEntry origin, String path) {
            calls.add("stat " + path + " as " + subject.name());
            return new NamespaceEntry(path, GridPath.name(path), false, 1, -1, null, null);
        }

        @Override
        public synchronized List<NamespaceEntry> list(GridSubject subject, OriginEntry origin, String dir) {
            calls.add("list " + dir + " as " + subject.name());
            return List.of(new NamespaceEntry(GridPath.child(dir, "f"), "f", false, 1, -1, null, null));
        }
    }

    @BeforeEach
    void start() throws Exception {
        server = EmbeddedZooKeeper.start(tmp.resolve("zk"), "127.0.0.1", 0);
        zk = Zk.connect(server.connectString());
        MountTable.put(zk, OriginEntry.of("grid", "/grid", "gsiftp://gridftp.example.org/data", "user"));
        MountTable.put(zk, OriginEntry.of("dav", "/dav", "http://dav.example.org/dav"));
        mounts = new MountTable(zk).start(Duration.ofSeconds(20));
        namespace = new Namespace(mounts, new Recording(), webdav, gridftp, Duration.ofMinutes(1));
    }

    @AfterEach
    void stop() throws Exception {
        mounts.close();
        zk.close();
        server.close();
    }

    @Test
    void anOriginReadAsTheUserIsAskedAsEachSubjectAndItsAnswersAreCachedPerSubject() {
        namespace.stat(ALICE, "/grid/x");
        namespace.stat(ALICE, "/grid/x");
        namespace.stat(BOB, "/grid/x");
        namespace.list(ALICE, "/grid/d");
        namespace.list(BOB, "/grid/d");
        namespace.list(BOB, "/grid/d");
        assertEquals(List.of("stat /grid/x as " + ALICE.name(), "stat /grid/x as " + BOB.name(),
                "list /grid/d as " + ALICE.name(), "list /grid/d as " + BOB.name()), gridftp.calls);
        namespace.stat(ALICE, "/grid/d/f");
        assertEquals(4, gridftp.calls.size(), "a child of a listing the subject made is answered from it");
        namespace.stat(GridSubject.ANONYMOUS, "/grid/d/f");
        assertEquals("stat /grid/d/f as " + GridSubject.ANONYMOUS.name(), gridftp.calls.get(4), "not from another subject's listing");
    }

    @Test
    void anOriginTheDoorReadsAsItselfIsAskedOnceForEveryone() {
        namespace.stat(ALICE, "/dav/x");
        namespace.stat(BOB, "/dav/x");
        namespace.list(BOB, "/dav/d");
        namespace.list(ALICE, "/dav/d");
        assertEquals(List.of("stat /dav/x as " + ALICE.name(), "list /dav/d as " + BOB.name()), webdav.calls);
    }
}
