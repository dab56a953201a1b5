package org.gridcache.door.namespace;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.gridcache.common.OriginEntry;
import org.gridcache.common.security.GridSubject;
import org.gridcache.door.http.DoorException;
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
        LocalOriginLister lister = new LocalOriginLister();

        assertEquals(List.of("ok.txt"), lister.list(GridSubject.ANONYMOUS, origin, "/m").stream().map(NamespaceEntry::name).toList());
        assertEquals(2, lister.stat(GridSubject.ANONYMOUS, origin, "/m/ok.txt").size());
        assertEquals(404, assertThrows(DoorException.class, () -> lister.stat(GridSubject.ANONYMOUS, origin, "/m/escape.txt")).status());
        assertEquals(404, assertThrows(DoorException.class, () -> lister.stat(GridSubject.ANONYMOUS, origin, "/m/up/secret.txt")).status());
        assertEquals(404, assertThrows(DoorException.class, () -> lister.list(GridSubject.ANONYMOUS, origin, "/m/up")).status());
        assertEquals(404, assertThrows(DoorException.class, () -> lister.stat(GridSubject.ANONYMOUS, origin, "/m/absent")).status());
    }
}
