package org.gridcache.common.origin;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Which {@code file://} origins a node serves ({@code --file-origin-root}), compared by real paths. */
class FileOriginRootsTest {
    @TempDir
    Path tmp;
    Path data;
    FileOriginRoots allowed;

    @BeforeEach
    void tree() throws IOException {
        data = Files.createDirectories(tmp.resolve("data"));
        Files.writeString(Files.createDirectories(data.resolve("sub")).resolve("f.txt"), "inside");
        Files.writeString(Files.createDirectories(tmp.resolve("data2")).resolve("f.txt"), "sibling");
        Files.writeString(Files.createDirectories(tmp.resolve("secret")).resolve("f.txt"), "secret");
        allowed = FileOriginRoots.of(List.of(data));
    }

    private static String read(LocalOriginRoot root, String... names) throws IOException {
        try (LocalOriginRoot.OpenFile file = root.open(List.of(names))) {
            ByteBuffer buffer = ByteBuffer.allocate(64);
            file.channel().read(buffer);
            return new String(buffer.array(), 0, buffer.position(), StandardCharsets.UTF_8);
        }
    }

    private String refusal(FileOriginRoots roots, Path origin) {
        return assertThrows(FileOriginRoots.NotAllowed.class, () -> roots.root(origin.toUri().toString())).getMessage();
    }

    @Test
    void anOriginAtOrBelowAnAllowedDirectoryIsServed() throws Exception {
        assertEquals("inside", read(allowed.root(data.toUri().toString()), "sub", "f.txt"));
        assertEquals("inside", read(allowed.root(data.resolve("sub").toUri().toString()), "f.txt"));
        assertEquals(data.resolve("sub"), allowed.root(data.resolve("sub").toUri().toString()).path());
    }

    @Test
    void noneAllowedServesNoFileOrigin() {
        String reason = refusal(FileOriginRoots.NONE, data);
        assertEquals("this node has no --file-origin-root (it serves no file:// origin)", reason);
    }

    @Test
    void aSiblingWithTheSamePrefixOrAParentIsNotBelowTheAllowedDirectory() {
        String reason = refusal(allowed, tmp.resolve("data2"));
        assertTrue(reason.contains("not at or below a --file-origin-root"), reason);
        refusal(allowed, tmp);
        refusal(allowed, Path.of("/"));
        assertTrue(refusal(allowed, data.resolve("../secret")).contains("--file-origin-root"), "normalised before compared");
    }

    @Test
    void realPathsAreCompared() throws Exception {
        Path escape = Files.createSymbolicLink(data.resolve("escape"), tmp.resolve("secret"));
        refusal(allowed, escape); // named below the allowed directory, lies outside it
        Path inward = Files.createSymbolicLink(tmp.resolve("inward"), data.resolve("sub"));
        LocalOriginRoot root = allowed.root(inward.toUri().toString());
        assertEquals("inside", read(root, "f.txt"), "named through a link, lies inside");
        assertEquals(List.of("f.txt"), LocalOriginRoot.below(inward.toUri(), inward.resolve("f.txt").toUri()),
                "files are still named below the root the mount table names");
        FileOriginRoots viaLink = FileOriginRoots.of(List.of(Files.createSymbolicLink(tmp.resolve("data-link"), data)));
        assertEquals(List.of(data.toRealPath()), viaLink.directories(), "the allowed directory is resolved once, at start");
        assertEquals("inside", read(viaLink.root(data.resolve("sub").toUri().toString()), "f.txt"));
    }

    @Test
    void aDirectoryOnTheWaySwappedForALinkAfterTheCheckFailsTheWalk() throws Exception {
        LocalOriginRoot root = allowed.root(data.resolve("sub").toUri().toString());
        Files.move(data.resolve("sub"), tmp.resolve("sub-moved"));
        Files.createSymbolicLink(data.resolve("sub"), tmp.resolve("secret"));
        LocalOriginRoot.NotServed e = assertThrows(LocalOriginRoot.NotServed.class, () -> read(root, "f.txt"));
        assertTrue(e.getMessage().contains("symbolic link"), e.getMessage());
    }

    @Test
    void aMissingAllowedDirectoryStopsTheNodeAndAMissingOriginIsNotFound() {
        IOException e = assertThrows(IOException.class, () -> FileOriginRoots.of(List.of(tmp.resolve("typo"))));
        assertTrue(e.getMessage().startsWith("--file-origin-root " + tmp.resolve("typo")), e.getMessage());
        assertThrows(NoSuchFileException.class, () -> allowed.root(data.resolve("gone").toUri().toString()));
        assertThrows(IllegalArgumentException.class, () -> allowed.root("file://otherhost/data"));
    }
}
