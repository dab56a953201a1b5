package org.gridcache.zk;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;

/**
 * A ZooKeeper server's data directory, readable by its own user only: its transaction log and snapshots hold every
 * znode in clear, the macaroon root keys included, whatever the znodes' ACLs say. The directory is 0700 and what lies
 * in it 0600 (directories 0700), set at every start, so a directory an earlier version made with the umask (0755, its
 * log 0644) is closed too. Files ZooKeeper makes later (new log segments, snapshots) take the process umask
 * ({@code bin/gridcache} runs the servers under 077), and lie in the 0700 directory whatever it is.
 */
public final class ZkDataDirectory {
    private static final Set<PosixFilePermission> DIRECTORY = PosixFilePermissions.fromString("rwx------");
    private static final Set<PosixFilePermission> FILE = PosixFilePermissions.fromString("rw-------");
    /** Any of these on the directory let another local user reach what is inside. */
    private static final List<PosixFilePermission> REACHABLE = List.of(PosixFilePermission.GROUP_EXECUTE,
            PosixFilePermission.OTHERS_EXECUTE);

    private ZkDataDirectory() {
    }

    /**
     * Creates {@code dir} (and its parents) or closes it, as above. Returns whether another local user could reach
     * it before: then whatever it holds may have been read (an earlier version's directory).
     */
    public static boolean makePrivate(Path dir) throws IOException {
        boolean existed = Files.isDirectory(dir);
        boolean reachable = existed && Files.getPosixFilePermissions(dir).stream().anyMatch(REACHABLE::contains);
        Files.createDirectories(dir);
        try (Stream<Path> all = Files.walk(dir.toRealPath())) { // below it, follows no link; nobody but us puts one there
            for (Path p : all.toList()) {
                if (Files.isDirectory(p, LinkOption.NOFOLLOW_LINKS)) {
                    Files.setPosixFilePermissions(p, DIRECTORY);
                } else if (Files.isRegularFile(p, LinkOption.NOFOLLOW_LINKS)) {
                    Files.setPosixFilePermissions(p, FILE);
                }
            }
        }
        return reachable;
    }
}
