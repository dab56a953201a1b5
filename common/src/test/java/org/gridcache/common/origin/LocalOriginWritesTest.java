package org.gridcache.common.origin;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Writes below a {@code file://} origin root: atomic uploads, and links swapped in never followed. */
class LocalOriginWritesTest {
    @TempDir
    Path tmp;
    private Path root;
    private Path outside;
    private LocalOriginWrites writes;

    @BeforeEach
    void setUp() throws IOException {
        root = Files.createDirectories(tmp.resolve("root"));
        outside = Files.createDirectories(tmp.resolve("outside"));
        Files.createDirectories(root.resolve("dir"));
        writes = new LocalOriginWrites(LocalOriginRoot.of(root));
    }

    @Test
    void anUploadIsInvisibleUnderItsNameUntilCommittedAndAnAbortLeavesNothing() throws IOException {
        try (LocalOriginWrites.Upload upload = writes.upload(List.of("dir", "f.bin"))) {
            LocalOriginWrites.writeFully(upload.channel(), ByteBuffer.wrap(new byte[] {1, 2, 3}));
            assertFalse(Files.exists(root.resolve("dir/f.bin")), "no partial file under the final name");
            assertFalse(upload.commit(), "created, not replaced");
        }
        assertArrayEquals(new byte[] {1, 2, 3}, Files.readAllBytes(root.resolve("dir/f.bin")));
        try (LocalOriginWrites.Upload upload = writes.upload(List.of("dir", "g.bin"))) {
            LocalOriginWrites.writeFully(upload.channel(), ByteBuffer.wrap(new byte[] {9}));
        } // closed without a commit: the client broke off
        assertEquals(List.of(root.resolve("dir/f.bin")), list(root.resolve("dir")));
    }

    @Test
    void aLinkSwappedInForAParentIsRefusedAndNothingLandsOutside() throws IOException {
        Files.delete(root.resolve("dir"));
        Files.createSymbolicLink(root.resolve("dir"), outside);
        assertThrows(LocalOriginRoot.NotServed.class, () -> writes.upload(List.of("dir", "planted")));
        assertThrows(LocalOriginRoot.NotServed.class, () -> writes.mkcol(List.of("dir", "made")));
        assertThrows(LocalOriginRoot.NotServed.class, () -> writes.delete(List.of("dir", "x")));
        assertThrows(LocalOriginRoot.NotServed.class, () -> writes.move(List.of("dir"), List.of("moved"), true));
        assertEquals(List.of(), list(outside));
    }

    @Test
    void deletingOrReplacingALinkRemovesTheLinkNeverItsTarget() throws IOException {
        Files.writeString(outside.resolve("victim"), "keep");
        Files.createDirectories(outside.resolve("tree"));
        Files.writeString(outside.resolve("tree/leaf"), "keep");
        Files.createSymbolicLink(root.resolve("dir/file-link"), outside.resolve("victim"));
        Files.createSymbolicLink(root.resolve("dir/tree-link"), outside.resolve("tree"));
        writes.delete(List.of("dir")); // the whole collection, links inside it included
        assertFalse(Files.exists(root.resolve("dir")));
        assertEquals("keep", Files.readString(outside.resolve("victim")));
        assertEquals("keep", Files.readString(outside.resolve("tree/leaf")));

        Files.createSymbolicLink(root.resolve("over"), outside.resolve("victim"));
        try (LocalOriginWrites.Upload upload = writes.upload(List.of("over"))) {
            LocalOriginWrites.writeFully(upload.channel(), ByteBuffer.wrap(new byte[] {7}));
            assertTrue(upload.commit(), "replaced the link");
        }
        assertFalse(Files.isSymbolicLink(root.resolve("over")));
        assertEquals("keep", Files.readString(outside.resolve("victim")));
    }

    @Test
    void moveAndCopyHonourOverwriteAndCopyCollectionsDeepOrShallow() throws IOException {
        Files.writeString(root.resolve("dir/a"), "a");
        Files.writeString(root.resolve("b"), "b");
        assertThrows(LocalOriginWrites.DestinationExists.class, () -> writes.move(List.of("b"), List.of("dir", "a"), false));
        assertEquals("a", Files.readString(root.resolve("dir/a")));
        assertFalse(writes.copy(List.of("dir"), List.of("deep"), false, true));
        assertEquals("a", Files.readString(root.resolve("deep/a")));
        assertFalse(writes.copy(List.of("dir"), List.of("shallow"), false, false));
        assertEquals(List.of(), list(root.resolve("shallow")));
        assertTrue(writes.move(List.of("b"), List.of("dir", "a"), true));
        assertEquals("b", Files.readString(root.resolve("dir/a")));
        assertThrows(FileAlreadyExistsException.class, () -> writes.mkcol(List.of("dir")));
        assertThrows(LocalOriginWrites.MissingParent.class, () -> writes.mkcol(List.of("none", "x")));
        assertThrows(NoSuchFileException.class, () -> writes.delete(List.of("none")));
    }

    private static List<Path> list(Path dir) throws IOException {
        try (Stream<Path> s = Files.list(dir)) {
            return s.sorted().toList();
        }
    }
}
