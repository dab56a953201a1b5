package org.gridcache.simulator;

/** One whole-file read: the unit every {@link Trace} yields and the simulator replays. */
public record Read(String path, long size) {
    public Read {
        if (path == null || path.isEmpty()) {
            throw new IllegalArgumentException("a read needs a path");
        }
        if (size < 0) {
            throw new IllegalArgumentException("negative size " + size + " for " + path);
        }
    }
}
