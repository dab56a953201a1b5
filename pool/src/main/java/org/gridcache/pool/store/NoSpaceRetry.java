package org.gridcache.pool.store;

import java.io.IOException;
import java.util.function.LongPredicate;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A write to the store's disk that the file system refuses for want of space (ENOSPC, EDQUOT: something besides the
 * store's accounting filled the disk) asks the store to evict ({@link Store#makeRoomOnDisk}) and is tried once more;
 * a second refusal, or no room made, is the caller's failure as before.
 */
public final class NoSpaceRetry {
    private static final Logger LOG = LoggerFactory.getLogger(NoSpaceRetry.class);

    /** A write that may be run twice: the second run goes on from where the first stopped. */
    public interface Write {
        void run() throws IOException;
    }

    private NoSpaceRetry() {
    }

    /** Runs {@code write}; on "no space", makes room for {@code bytes} with {@code makeRoom} and runs it once more. */
    public static void run(LongPredicate makeRoom, long bytes, String what, Write write) throws IOException {
        try {
            write.run();
        } catch (IOException e) {
            if (!StoreException.isNoSpace(e) || !makeRoom.test(bytes)) {
                throw e;
            }
            LOG.info("store: the disk had no room to {}; evicted, trying again", what);
            write.run();
        }
    }
}
