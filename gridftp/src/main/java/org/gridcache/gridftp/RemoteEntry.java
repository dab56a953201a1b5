package org.gridcache.gridftp;

/**
 * A file or directory as MLST/MLSD describe it: {@code size} and {@code mtimeMillis} are -1 when the server does not
 * say (directories have no size).
 */
public record RemoteEntry(String name, boolean directory, long size, long mtimeMillis) {
}
