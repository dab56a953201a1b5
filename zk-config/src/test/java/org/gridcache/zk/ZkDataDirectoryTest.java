package org.gridcache.zk;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A ZooKeeper data directory is closed at every start, and tells whether it was open before. */
class ZkDataDirectoryTest {
    @TempDir
    Path tmp;

    @Test
    void aDirectoryAnEarlierVersionLeftOpenIsClosedAndSaysSo() throws Exception {
        Path dir = Files.createDirectories(tmp.resolve("zookeeper/log/version-2"));
        Path log = Files.writeString(dir.resolve("log.1"), "the key in clear");
        for (Path p : new Path[] {tmp.resolve("zookeeper"), tmp.resolve("zookeeper/log"), dir}) {
            Files.setPosixFilePermissions(p, PosixFilePermissions.fromString("rwxr-xr-x"));
        }
        Files.setPosixFilePermissions(log, PosixFilePermissions.fromString("rw-r--r--"));

        assertTrue(ZkDataDirectory.makePrivate(tmp.resolve("zookeeper")), "was open");
        assertEquals("rwx------", mode(tmp.resolve("zookeeper")));
        assertEquals("rwx------", mode(dir));
        assertEquals("rw-------", mode(log));
        assertFalse(ZkDataDirectory.makePrivate(tmp.resolve("zookeeper")), "closed since");
    }

    @Test
    void aNewDirectoryIsPrivateAndWasNeverOpen() throws Exception {
        assertFalse(ZkDataDirectory.makePrivate(tmp.resolve("new/zookeeper")));
        assertEquals("rwx------", mode(tmp.resolve("new/zookeeper")));
    }

    private static String mode(Path p) throws Exception {
        return PosixFilePermissions.toString(Files.getPosixFilePermissions(p));
    }
}
