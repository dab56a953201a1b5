package org.gridcache.pool.fetch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.gridcache.common.ClusterSettings;
import org.gridcache.common.Ticket;
import org.gridcache.pool.origin.OriginFetcher;
import org.gridcache.pool.store.Store;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Misses as {@link Downloads} starts them: what a fetch holds before its first byte reaches the disk. */
class DownloadsTest {
    @TempDir
    Path dir;

    /** An origin that answers the head and then nothing: the fetch waits, as one queued behind the disk writers does. */
    private static final class SilentOrigin implements OriginFetcher {
        @Override
        public boolean supports(URI origin) {
            return true;
        }

        @Override
        public void fetch(URI origin, DownloadSink sink) {
            try {
                sink.begin(100, 1, null);
            } catch (FetchException e) {
                sink.fail(e);
            }
        }

        @Override
        public void close() {
        }
    }

    private static long openDescriptors() throws Exception {
        try (Stream<Path> fds = Files.list(Path.of("/proc/self/fd"))) {
            return fds.count();
        }
    }

    /**
     * A fetch's part file is opened for writing only when bytes are written, so a backlog of fetches (small files
     * arriving faster than the disk writers commit them) holds no descriptors; 100,000 such would exhaust a pool's.
     */
    @Test
    void fetchesWaitingForTheirBytesHoldNoDescriptor() throws Exception {
        Store store = Store.open(dir, 1 << 30, ClusterSettings::defaults);
        try (Downloads downloads = new Downloads(store, List.of(new SilentOrigin()), () -> 1 << 20)) {
            long before = openDescriptors();
            List<Downloads.Source> sources = new ArrayList<>();
            for (int i = 0; i < 200; i++) {
                Ticket ticket = new Ticket("/f" + i, "p", Ticket.READ, Long.MAX_VALUE, "anonymous", "door", "http://o/f" + i, 100, -1);
                Downloads.Source source = downloads.open(ticket);
                source.file().close(); // the client's reader: the mover closes it when the client is done
                sources.add(source);
            }
            assertEquals(200, downloads.inFlight());
            long held = openDescriptors() - before;
            assertTrue(held < 20, "200 fetches in flight hold " + held + " descriptors");
            try (Stream<Path> parts = Files.walk(dir.resolve("data"))) {
                assertEquals(200, parts.filter(p -> p.toString().endsWith(Store.PART)).count(), "each part file is there for readers");
            }
        }
    }
}
