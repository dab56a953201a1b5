package org.gridcache.common.origin;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class LocalOriginRootTest {
    @TempDir
    Path tmp;
    Path root;
    LocalOriginRoot origin;

    @BeforeEach
    void tree() throws IOException {
        root = Files.createDirectories(tmp.resolve("root"));
        Files.writeString(Files.createDirectories(root.resolve("dir")).resolve("f.txt"), "inside");
        Files.writeString(tmp.resolve("secret.txt"), "secret");
        Files.createDirectories(tmp.resolve("elsewhere"));
        Files.writeString(tmp.resolve("elsewhere/f.txt"), "secret");
        origin = LocalOriginRoot.of(root.toUri());
    }

    @Test
    void readsARegularFileBelowTheRoot() throws Exception {
        try (LocalOriginRoot.OpenFile file = origin.open(List.of("dir", "f.txt"))) {
            ByteBuffer buffer = ByteBuffer.allocate(64);
            file.channel().read(buffer);
            assertEquals("inside", new String(buffer.array(), 0, buffer.position(), StandardCharsets.UTF_8));
            assertTrue(file.attributes().isRegularFile());
        }
        assertTrue(origin.stat(List.of()).isDirectory());
        assertEquals(List.of("dir"), origin.list(List.of()).stream().map(LocalOriginRoot.Entry::name).toList());
    }

    @Test
    void aFileReplacedByALinkIsNotServedWhereverTheLinkPoints() throws Exception {
        Files.delete(root.resolve("dir/f.txt"));
        Files.createSymbolicLink(root.resolve("dir/f.txt"), tmp.resolve("secret.txt"));
        Files.writeString(root.resolve("dir/g.txt"), "inside");
        Files.createSymbolicLink(root.resolve("dir/alias.txt"), root.resolve("dir/g.txt"));
        for (String name : List.of("f.txt", "alias.txt")) {
            LocalOriginRoot.NotServed e = assertThrows(LocalOriginRoot.NotServed.class, () -> origin.open(List.of("dir", name)));
            assertTrue(e.getMessage().contains("symbolic link"), e.getMessage());
            assertThrows(LocalOriginRoot.NotServed.class, () -> origin.stat(List.of("dir", name)));
        }
        assertEquals(List.of("g.txt"), origin.list(List.of("dir")).stream().map(LocalOriginRoot.Entry::name).toList());
    }

    @Test
    void aDirectoryReplacedByALinkIsNotWalkedThrough() throws Exception {
        Files.move(root.resolve("dir"), tmp.resolve("moved"));
        Files.createSymbolicLink(root.resolve("dir"), tmp.resolve("elsewhere"));
        LocalOriginRoot.NotServed e = assertThrows(LocalOriginRoot.NotServed.class, () -> origin.open(List.of("dir", "f.txt")));
        assertTrue(e.getMessage().contains("symbolic link"), e.getMessage());
        assertThrows(LocalOriginRoot.NotServed.class, () -> origin.list(List.of("dir")));
        assertThrows(LocalOriginRoot.NotServed.class, () -> origin.stat(List.of("dir", "f.txt")));
    }

    @Test
    void aFifoIsNeitherOpenedNorListed() throws Exception {
        Process mkfifo = new ProcessBuilder("mkfifo", root.resolve("dir/pipe").toString()).inheritIO().start();
        assertTrue(mkfifo.waitFor(30, TimeUnit.SECONDS) && mkfifo.exitValue() == 0, "mkfifo failed");
        LocalOriginRoot.NotServed e = assertThrows(LocalOriginRoot.NotServed.class, () -> origin.open(List.of("dir", "pipe")));
        assertEquals("not a regular file", e.getMessage());
        assertEquals(List.of("f.txt"), origin.list(List.of("dir")).stream().map(LocalOriginRoot.Entry::name).toList());
    }

    @Test
    void directoriesAndAbsentFilesAreRefusedAsSuch() {
        assertThrows(LocalOriginRoot.NotServed.class, () -> origin.open(List.of("dir")));
        assertThrows(LocalOriginRoot.NotServed.class, () -> origin.open(List.of()));
        assertThrows(NoSuchFileException.class, () -> origin.open(List.of("dir", "absent")));
        assertThrows(NotDirectoryException.class, () -> origin.open(List.of("dir", "f.txt", "x")));
        assertThrows(NoSuchFileException.class, () -> origin.open(List.of("dir", "..", "dir", "f.txt")));
    }

    @Test
    void onlyUrlsBelowTheRootHaveComponents() {
        assertEquals(List.of("dir", "f.txt"), LocalOriginRoot.below(root.toUri(), root.resolve("dir/f.txt").toUri()));
        assertEquals(List.of(), LocalOriginRoot.below(root.toUri(), root.toUri()));
        assertNull(LocalOriginRoot.below(root.toUri(), tmp.resolve("secret.txt").toUri()));
        assertNull(LocalOriginRoot.below(root.toUri(), tmp.resolve("rootless/f.txt").toUri()));
        assertNull(LocalOriginRoot.below(root.toUri(), java.net.URI.create(root.toUri() + "dir/../../secret.txt")));
        assertNull(LocalOriginRoot.below(root.toUri(), java.net.URI.create("http://host/x")));
    }
}
