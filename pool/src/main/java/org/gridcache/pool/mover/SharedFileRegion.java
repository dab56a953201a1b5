package org.gridcache.pool.mover;

import io.netty.channel.DefaultFileRegion;
import java.nio.channels.FileChannel;

/**
 * A zero-copy slice of a file that a mover sends piece by piece as a fetch fills it: unlike
 * {@link DefaultFileRegion} it leaves the file open when released, because the next slice reads the same file;
 * the mover closes it when done.
 */
public final class SharedFileRegion extends DefaultFileRegion {
    private final FileChannel file;

    public SharedFileRegion(FileChannel file, long position, long count) {
        super(file, position, count);
        this.file = file;
    }

    /** The file, open while the mover runs: under TLS its bytes are read straight into the buffers to encrypt. */
    public FileChannel file() {
        return file;
    }

    @Override
    protected void deallocate() {
        // the mover owns the file
    }
}
