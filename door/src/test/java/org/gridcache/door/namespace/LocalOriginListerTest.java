package org.gridcache.door.namespace;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.gridcache.common.origin.FileOriginRoots;
import org.gridcache.common.origin.OriginEntry;
import org.gridcache.common.security.GridSubject;
import org.gridcache.door.exchange.DoorException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class LocalOriginListerTest {
    @TempDir
    Path tmp;

    @Test
    void neverLeavesTheOriginRoot() throws Exception {
        Path root = Files.createDirectories(tmp.resolve("root"));
        Path outside = Files.writeString(tmp.resolve("secret.txt"), "secret");
        Files.writeString(root.resolve("ok.txt"), "ok");
        Files.createSymbolicLink(root.resolve("escape.txt"), outside);
        Files.createSymbolicLink(root.resolve("up"), tmp);
        OriginEntry origin = OriginEntry.of("o", "/m", root.toUri().toString());
        LocalOriginLister lister = new LocalOriginLister(FileOriginRoots.of(List.of(tmp)));

        assertEquals(List.of("ok.txt"), lister.list(GridSubject.ANONYMOUS, OriginIdentity.DOOR, origin, "/m").stream().map(NamespaceEntry::name).toList());
        assertEquals(2, lister.stat(GridSubject.ANONYMOUS, OriginIdentity.DOOR, origin, "/m/ok.txt").size());
        assertEquals(404, assertThrows(DoorException.class, () -> lister.stat(GridSubject.ANONYMOUS, OriginIdentity.DOOR, origin, "/m/escape.txt")).status());
        assertEquals(404, assertThrows(DoorException.class, () -> lister.stat(GridSubject.ANONYMOUS, OriginIdentity.DOOR, origin, "/m/up/secret.txt")).status());
        assertEquals(404, assertThrows(DoorException.class, () -> lister.list(GridSubject.ANONYMOUS, OriginIdentity.DOOR, origin, "/m/up")).status());
        assertEquals(404, assertThrows(DoorException.class, () -> lister.stat(GridSubject.ANONYMOUS, OriginIdentity.DOOR, origin, "/m/absent")).status());
    }

    /** Pools never follow a link below the root, so the namespace shows none: not even one that stays inside. */
    @Test
    void showsNoSymbolicLinkBelowTheRootWhereverItPoints() throws Exception {
        Path root = Files.createDirectories(tmp.resolve("root"));
        Files.writeString(Files.createDirectories(root.resolve("dir")).resolve("f.txt"), "inside");
        Files.createSymbolicLink(root.resolve("alias.txt"), root.resolve("dir/f.txt"));
        Files.createSymbolicLink(root.resolve("dirlink"), root.resolve("dir"));
        OriginEntry origin = OriginEntry.of("o", "/", root.toUri().toString());
        LocalOriginLister lister = new LocalOriginLister(FileOriginRoots.of(List.of(tmp)));

        assertEquals(List.of("dir"), lister.list(GridSubject.ANONYMOUS, OriginIdentity.DOOR, origin, "/").stream().map(NamespaceEntry::name).toList());
        assertEquals(6, lister.stat(GridSubject.ANONYMOUS, OriginIdentity.DOOR, origin, "/dir/f.txt").size());
        DoorException link = assertThrows(DoorException.class, () -> lister.stat(GridSubject.ANONYMOUS, OriginIdentity.DOOR, origin, "/alias.txt"));
        assertEquals(404, link.status());
        assertTrue(link.getMessage().contains("symbolic link"), link.getMessage());
        assertEquals(404, assertThrows(DoorException.class, () -> lister.stat(GridSubject.ANONYMOUS, OriginIdentity.DOOR, origin, "/dirlink/f.txt")).status());
        assertEquals(404, assertThrows(DoorException.class, () -> lister.list(GridSubject.ANONYMOUS, OriginIdentity.DOOR, origin, "/dirlink")).status());
        assertEquals(409, assertThrows(DoorException.class, () -> lister.list(GridSubject.ANONYMOUS, OriginIdentity.DOOR, origin, "/dir/f.txt")).status());
    }

    @Test
    void aMissingRootIsAnUnavailableOrigin() {
        OriginEntry origin = OriginEntry.of("o", "/", tmp.resolve("gone").toUri().toString());
        assertEquals(502, assertThrows(DoorException.class, () -> new LocalOriginLister(FileOriginRoots.of(List.of(tmp))).stat(GridSubject.ANONYMOUS, OriginIdentity.DOOR, origin, "/x")).status());
    }

    /** Whoever writes the mount table, the door lists only directories its administrator allows. */
    @Test
    void anOriginOutsideTheAllowedDirectoriesIsRefusedWithTheSetting() throws Exception {
        Path data = Files.createDirectories(tmp.resolve("x/data"));
        Files.writeString(data.resolve("ok.txt"), "ok");
        Files.writeString(Files.createDirectories(tmp.resolve("x/data2")).resolve("secret.txt"), "secret");
        LocalOriginLister lister = new LocalOriginLister(FileOriginRoots.of(List.of(data)));
        assertEquals(List.of("ok.txt"), lister.list(GridSubject.ANONYMOUS, OriginIdentity.DOOR,
                OriginEntry.of("data", "/", data.toUri().toString()), "/").stream().map(NamespaceEntry::name).toList());

        for (Path outside : List.of(tmp.resolve("x/data2"), tmp.resolve("x"), Path.of("/etc"))) {
            OriginEntry origin = OriginEntry.of("evil", "/", outside.toUri().toString());
            DoorException e = assertThrows(DoorException.class, () -> lister.stat(GridSubject.ANONYMOUS, OriginIdentity.DOOR, origin, "/secret.txt"));
            assertEquals(403, e.status(), e.getMessage() + " " + origin.url());
            assertTrue(e.getMessage().equals("origin evil is not served: the origin directory is not at or below a --file-origin-root of this node"),
                    e.getMessage());
            assertEquals(403, assertThrows(DoorException.class, () -> lister.list(GridSubject.ANONYMOUS, OriginIdentity.DOOR, origin, "/")).status());
        }
        DoorException none = assertThrows(DoorException.class, () -> new LocalOriginLister(FileOriginRoots.NONE)
                .stat(GridSubject.ANONYMOUS, OriginIdentity.DOOR, OriginEntry.of("data", "/", data.toUri().toString()), "/ok.txt"));
        assertEquals(403, none.status());
        assertTrue(none.getMessage().contains("no --file-origin-root"), none.getMessage());
    }
}
