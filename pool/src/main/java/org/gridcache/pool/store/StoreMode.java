package org.gridcache.pool.store;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileAttribute;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Set;

/**
 * The permissions of what a pool writes to its store: cached data is the users' data, read from origins with their
 * credentials, so no other local user may read it whatever the process umask. {@link #PRIVATE} (files 0600,
 * directories 0700) by default; {@link #GROUP_READABLE} (0640, 0750) lets the pool's group read, for a backup or
 * monitoring account. Files are created with the mode (never wider for a moment) and then set to exactly it, since a
 * restrictive umask would otherwise narrow the group's bits.
 */
public enum StoreMode {
    PRIVATE("rw-------", "rwx------"),
    GROUP_READABLE("rw-r-----", "rwxr-x---");

    private final Set<PosixFilePermission> file;
    private final Set<PosixFilePermission> directory;

    StoreMode(String file, String directory) {
        this.file = PosixFilePermissions.fromString(file);
        this.directory = PosixFilePermissions.fromString(directory);
    }

    public Set<PosixFilePermission> filePermissions() {
        return file;
    }

    public Set<PosixFilePermission> directoryPermissions() {
        return directory;
    }

    FileAttribute<Set<PosixFilePermission>> fileAttribute() {
        return PosixFilePermissions.asFileAttribute(file);
    }

    FileAttribute<Set<PosixFilePermission>> directoryAttribute() {
        return PosixFilePermissions.asFileAttribute(directory);
    }

    void applyToFile(Path file) throws IOException {
        Files.setPosixFilePermissions(file, this.file);
    }

    void applyToDirectory(Path dir) throws IOException {
        Files.setPosixFilePermissions(dir, directory);
    }
}
