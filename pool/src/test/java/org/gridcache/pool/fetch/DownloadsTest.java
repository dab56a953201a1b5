package org.gridcache.pool.fetch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.buffer.Unpooled;
import java.net.URI;
import java.util.Map;
import java.nio.channels.FileChannel;
import org.gridcache.pool.http.FetchException;
import org.gridcache.pool.origin.DownloadSink;
import org.gridcache.pool.store.StoreKey;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.gridcache.common.checksum.ChecksumComputation;
import org.gridcache.common.checksum.ChecksumType;
import org.gridcache.common.checksum.Checksums;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.gridcache.common.settings.ClusterSettings;
import org.gridcache.common.ticket.Ticket;
import org.gridcache.pool.origin.OriginFetcher;
import org.gridcache.pool.store.Store;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Misses as {@link Downloads} starts them: what a fetch holds before its first byte reaches the disk, and how it ends. */
class DownloadsTest {
    @TempDir
    Path dir;

    /** The test origins serve every URL and hold nothing to close. */
    private abstract static class AnyOrigin implements OriginFetcher {
        @Override
        public boolean supports(URI origin) {
            return true;
        }

        @Override
        public void close() {
        }
    }

    /** An origin that answers the head and then nothing: the fetch waits, as one queued behind the disk writers does. */
    private static final class SilentOrigin extends AnyOrigin {
        @Override
        public void fetch(URI origin, DownloadSink sink) {
            try {
                sink.begin(100, 1, null);
            } catch (FetchException e) {
                sink.fail(e);
            }
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
                Ticket ticket = ticket("f" + i, 100, -1);
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

    /**
     * A GridFTP-like origin: announces that it will verify adler32 (its CKSM comes after the data), sends the bytes,
     * then gives its checksum ({@code offered}, the true one unless told otherwise) and completes; records what the
     * sink said it computes, before the first byte and after the last. (Asked before the disk writer had taken a
     * byte, the sink once threw a NullPointerException: a small GridFTP file, all in memory when its CKSM came,
     * failed its fetch under load, its clients a byte short.)
     */
    private static final class VerifyingOrigin extends AnyOrigin {
        final byte[] content;
        final String offeredAdler32;
        final Map<ChecksumType, Boolean> computed = new java.util.EnumMap<>(ChecksumType.class);
        final Map<ChecksumType, Boolean> computedBeforeTheFirstWrite = new java.util.EnumMap<>(ChecksumType.class);
        final CountDownLatch sent = new CountDownLatch(1);
        /** Opened once the test listens: the fetch starts its thread at downloads.open(), before the listener is added. */
        final CountDownLatch listening = new CountDownLatch(1);

        VerifyingOrigin(byte[] content, String offeredAdler32) {
            this.content = content;
            this.offeredAdler32 = offeredAdler32;
        }

        @Override
        public void fetch(URI origin, DownloadSink sink) {
            new Thread(() -> {
                try {
                    // a listener added late would miss the states before it: the first STREAMING one, or all but COMPLETE
                    listening.await();
                    sink.willVerify(ChecksumType.ADLER32);
                    sink.begin(content.length, 1, null);
                    for (ChecksumType type : ChecksumType.values()) {
                        // asked before the disk writer took a byte: as a small file's fetch, all in memory, asks
                        computedBeforeTheFirstWrite.put(type, sink.computes(type));
                    }
                    sink.write(Unpooled.wrappedBuffer(content), () -> { });
                    for (ChecksumType type : ChecksumType.values()) {
                        computed.put(type, sink.computes(type));
                    }
                    sink.originChecksums(Checksums.fromHex(Map.of("adler32", offeredAdler32)));
                    sink.complete();
                } catch (FetchException e) {
                    sink.fail(e);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                } finally {
                    sent.countDown();
                }
            }).start();
        }
    }

    private static Checksums checksumsOf(byte[] content) {
        ChecksumComputation c = new ChecksumComputation(java.util.EnumSet.allOf(ChecksumType.class));
        c.update(content, 0, content.length);
        return c.finish();
    }

    /** What the download's listeners saw: whether the last byte was held, and the state, at each change. */
    private record Seen(boolean holdsLastByte, Download.State state) {
    }

    private List<Seen> fill(VerifyingOrigin origin, String name) throws Exception {
        return fill(origin, name, null);
    }

    /**
     * Fills {@code name} from {@code origin} and returns what a listener saw. With {@code beforeTheDisk}, both disk
     * writers are held busy until the origin has sent and completed, and {@code beforeTheDisk[0]} gets the fill's
     * state then (nothing on disk yet).
     */
    private List<Seen> fill(VerifyingOrigin origin, String name, Seen[] beforeTheDisk) throws Exception {
        Store store = Store.open(dir, 1 << 30, ClusterSettings::defaults);
        try (Downloads downloads = new Downloads(store, List.of(origin), () -> 64 << 20)) {
            CountDownLatch release = new CountDownLatch(1);
            if (beforeTheDisk != null) {
                holdDiskWriters(downloads, release, release);
            }
            Ticket ticket = ticket(name, origin.content.length, -1);
            Downloads.Joined joined = (Downloads.Joined) downloads.open(ticket);
            joined.file().close();
            Download download = joined.download();
            List<Seen> seen = new CopyOnWriteArrayList<>();
            CountDownLatch ended = new CountDownLatch(1);
            download.addListener(d -> {
                seen.add(new Seen(d.holdsLastByte(), d.state()));
                if (d.state() == Download.State.COMPLETE || d.state() == Download.State.FAILED) {
                    ended.countDown();
                }
            });
            origin.listening.countDown(); // only now may the origin's thread go on: the listener sees every state
            assertTrue(origin.sent.await(30, TimeUnit.SECONDS));
            if (beforeTheDisk != null) {
                assertEquals(0, download.written(), "no byte on disk yet");
                beforeTheDisk[0] = new Seen(download.holdsLastByte(), download.state());
                release.countDown();
            }
            assertTrue(ended.await(30, TimeUnit.SECONDS), "the fill ended: " + seen);
            if (download.state() == Download.State.COMPLETE) {
                assertEquals(checksumsOf(origin.content).toHex(), downloads.storedChecksums(ticket).toHex(),
                        "every type of pool.checksums kept, the costly ones computed after the verification");
            }
            return seen;
        }
    }

    /**
     * A verified fill computes inline only the cheap types and the one it will compare (md5 and sha-256 would hold
     * the clients' last byte for a pass each), and lets the last byte go once the origin's checksum agrees, before
     * the fsync, the costly checksums and the commit.
     */
    @Test
    void aVerifiedFillReleasesTheLastByteOnceTheComparedChecksumAgreesBeforeTheCostlyOnes() throws Exception {
        byte[] content = new byte[3 << 20];
        new java.util.Random(7).nextBytes(content);
        String adler32 = checksumsOf(content).toHex().get("adler32");
        VerifyingOrigin origin = new VerifyingOrigin(content, adler32);
        List<Seen> seen = fill(origin, "verified.bin");
        assertEquals(origin.computed, origin.computedBeforeTheFirstWrite, "the same answer before the first byte reached the disk");
        assertTrue(origin.computed.get(ChecksumType.ADLER32) && origin.computed.get(ChecksumType.CRC32C));
        assertFalse(origin.computed.get(ChecksumType.MD5) || origin.computed.get(ChecksumType.SHA256), origin.computed.toString());
        assertEquals(Download.State.COMPLETE, seen.get(seen.size() - 1).state(), seen.toString());
        assertTrue(seen.stream().anyMatch(s -> !s.holdsLastByte() && s.state() == Download.State.STREAMING),
                "the last byte released before the commit: " + seen);
        assertTrue(seen.stream().filter(s -> s.state() == Download.State.STREAMING).findFirst().orElseThrow().holdsLastByte());
    }

    @Test
    void aVerifiedFillWhoseChecksumDiffersNeverReleasesTheLastByte() throws Exception {
        byte[] content = new byte[1 << 20];
        new java.util.Random(8).nextBytes(content);
        List<Seen> seen = fill(new VerifyingOrigin(content, "00000001"), "mismatch.bin");
        assertEquals(Download.State.FAILED, seen.get(seen.size() - 1).state(), seen.toString());
        assertTrue(seen.stream().filter(s -> s.state() == Download.State.STREAMING).allMatch(Seen::holdsLastByte), seen.toString());
        try (Stream<Path> files = Files.walk(dir.resolve("data"))) {
            assertEquals(List.of(), files.filter(Files::isRegularFile).toList(), "nothing kept");
        }
    }

    /**
     * With both disk writers busy (a slow disk; on a VM, new page-cache pages), a verified fill whose compared
     * checksum is cheap lets its last byte go once every byte arrived and the origin's checksum agreed, before any
     * byte reached the disk: the commit alone waits for the disk. (Before, the comparison ran on the disk writer after
     * the last write: a GridFTP miss's clients waited for the disk to catch up with the network.)
     */
    @Test
    void aVerifiedFillReleasesTheLastByteBeforeTheDiskHasCaughtUp() throws Exception {
        byte[] content = new byte[2 << 20];
        new java.util.Random(9).nextBytes(content);
        Seen[] beforeTheDisk = new Seen[1];
        List<Seen> seen = fill(new VerifyingOrigin(content, checksumsOf(content).toHex().get("adler32")), "early.bin", beforeTheDisk);
        assertEquals(new Seen(false, Download.State.RECEIVED), beforeTheDisk[0], "released with nothing on disk: " + seen);
        assertEquals(Download.State.COMPLETE, seen.get(seen.size() - 1).state(), seen.toString());
    }

    /** As above, but the origin's checksum differs: the fill fails at once, its last byte never released. */
    @Test
    void aMismatchFoundOnReceiptFailsTheFillBeforeTheDiskHasCaughtUp() throws Exception {
        byte[] content = new byte[2 << 20];
        new java.util.Random(10).nextBytes(content);
        Seen[] beforeTheDisk = new Seen[1];
        List<Seen> seen = fill(new VerifyingOrigin(content, "00000001"), "early-mismatch.bin", beforeTheDisk);
        assertEquals(Download.State.FAILED, beforeTheDisk[0].state(), seen.toString());
        assertTrue(seen.stream().filter(s -> s.state() == Download.State.STREAMING).allMatch(Seen::holdsLastByte), seen.toString());
        try (Stream<Path> files = Files.walk(dir.resolve("data"))) {
            assertEquals(List.of(), files.filter(Files::isRegularFile).toList(), "nothing kept");
        }
    }

    /** An origin that sends the whole {@code content} on its own thread, each time it is asked. */
    private static final class WholeOrigin extends AnyOrigin {
        final byte[] content;

        WholeOrigin(byte[] content) {
            this.content = content;
        }

        @Override
        public void fetch(URI origin, DownloadSink sink) {
            new Thread(() -> {
                try {
                    sink.begin(content.length, 1, null);
                    sink.write(Unpooled.wrappedBuffer(content), () -> { });
                    sink.complete();
                } catch (FetchException e) {
                    sink.fail(e);
                }
            }).start();
        }
    }

    /**
     * Fills the ticket's file and puts a named pipe where its data file was (a second name, returned, opens its writing
     * end), so that a hit's open of it waits until that end is opened.
     */
    private Path storedAsAPipe(Store store, Downloads downloads, Ticket ticket) throws Exception {
        Path data = stored(store, downloads, ticket);
        Files.delete(data);
        assertEquals(0, new ProcessBuilder("mkfifo", data.toString()).inheritIO().start().waitFor(), "mkfifo");
        Path writingEnd = dir.resolve("pipe-" + ticket.path().substring(1));
        Files.createLink(writingEnd, data);
        return writingEnd;
    }

    /** Fills the ticket's file and waits for its commit; returns its data file. */
    private Path stored(Store store, Downloads downloads, Ticket ticket) throws Exception {
        Downloads.Joined joined = (Downloads.Joined) downloads.open(ticket);
        joined.file().close();
        CountDownLatch ended = new CountDownLatch(1);
        joined.download().addListener(d -> {
            if (d.state() == Download.State.COMPLETE || d.state() == Download.State.FAILED) {
                ended.countDown();
            }
        });
        assertTrue(ended.await(30, TimeUnit.SECONDS), "the fill ended");
        assertEquals(Download.State.COMPLETE, joined.download().state());
        store.unpin(joined.key()); // as its mover does when the client is done
        try (Stream<Path> files = Files.walk(dir.resolve("data"))) {
            return files.filter(Files::isRegularFile).filter(f -> !f.toString().endsWith(Store.SIDECAR)).findFirst().orElseThrow();
        }
    }

    /** Opens the ticket's file on a thread of its own, and returns once that thread waits in the open of the pipe. */
    private static java.util.concurrent.CompletableFuture<Downloads.Source> openWaitingOnThePipe(Downloads downloads, Ticket ticket)
            throws Exception {
        java.util.concurrent.CompletableFuture<Downloads.Source> opened = new java.util.concurrent.CompletableFuture<>();
        Thread opener = new Thread(() -> {
            try {
                opened.complete(downloads.open(ticket));
            } catch (Exception | Error e) {
                opened.completeExceptionally(e);
            }
        });
        opener.start();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (Stream.of(opener.getStackTrace()).noneMatch(f -> f.getMethodName().startsWith("open") && f.getClassName().contains("UnixNativeDispatcher"))) {
            assertFalse(opened.isDone(), "the open returned before the pipe had a writer: " + opened);
            assertTrue(System.nanoTime() < deadline, "the hit never reached the open of its file");
            Thread.onSpinWait();
        }
        return opened;
    }

    /** What a test does while a hit waits in the open of its file; {@code opened} completes when the hit returns. */
    private interface Meanwhile {
        void run(Store store, java.util.concurrent.Future<Downloads.Source> opened);
    }

    /**
     * Stores {@code name}, makes its hit wait in the open of its file, runs {@code meanwhile} on another thread (which
     * must end within 30 s), lets the open go on and returns what the hit's request got; the caller closes its file.
     */
    private Downloads.Source openWhile(String name, Meanwhile meanwhile) throws Exception {
        byte[] content = new byte[64 << 10];
        new java.util.Random(name.hashCode()).nextBytes(content);
        Store store = Store.open(dir, 1 << 30, ClusterSettings::defaults);
        try (Downloads downloads = new Downloads(store, List.of(new WholeOrigin(content)), () -> 1 << 20)) {
            Ticket ticket = ticket(name, content.length, 1);
            Path writingEnd = storedAsAPipe(store, downloads, ticket);
            java.util.concurrent.CompletableFuture<Downloads.Source> opened = openWaitingOnThePipe(downloads, ticket);
            try {
                java.util.concurrent.CompletableFuture.runAsync(() -> meanwhile.run(store, opened)).get(30, TimeUnit.SECONDS);
            } finally {
                java.nio.channels.FileChannel.open(writingEnd, java.nio.file.StandardOpenOption.WRITE).close();
            }
            return opened.get(30, TimeUnit.SECONDS);
        }
    }

    /**
     * A hit opens its file (a system call, tens of µs in a VM) outside the store's monitor, which every event loop's
     * requests take: held across the open, it serialized them and parked them on every small-file hit (with the open
     * under the monitor, this test's other thread waits for it: a timeout).
     */
    @Test
    void aHitOpensItsFileOutsideTheStoresMonitor() throws Exception {
        Downloads.Source source = openWhile("held.bin", (store, opened) -> {
            synchronized (store) {
                assertFalse(opened.isDone());
            }
        });
        source.file().close();
        assertTrue(source instanceof Downloads.Hit, "a hit: " + source);
    }

    /** A copy dropped while a hit opened its file is not served: the request is decided again, here as a new fetch. */
    @Test
    void aCopyDroppedWhileItsHitOpensTheFileIsFetchedAnew() throws Exception {
        Downloads.Source source = openWhile("dropped.bin",
                (store, opened) -> store.drop(org.gridcache.pool.store.StoreKey.ofOrigin("http://o/dropped.bin")));
        source.file().close();
        assertTrue(source instanceof Downloads.Joined, "a fetch, not the dropped copy: " + source);
    }

    /** A hit whose open fails (here: its directory is a file) keeps no pin: the copy can still be evicted. */
    @Test
    void aHitWhoseOpenFailsKeepsNoPin() throws Exception {
        byte[] content = new byte[4 << 10];
        Store store = Store.open(dir, 1 << 30, ClusterSettings::defaults);
        try (Downloads downloads = new Downloads(store, List.of(new WholeOrigin(content)), () -> 1 << 20)) {
            Ticket ticket = ticket("unreadable.bin", content.length, 1);
            Path parent = stored(store, downloads, ticket).getParent();
            try (Stream<Path> files = Files.list(parent)) {
                for (Path f : files.toList()) {
                    Files.delete(f);
                }
            }
            Files.delete(parent);
            Files.write(parent, new byte[0]); // every open below it now fails with ENOTDIR, not "no such file"
            assertThrows(java.nio.file.FileSystemException.class, () -> downloads.open(ticket));
            assertEquals(content.length, store.evict(org.gridcache.pool.store.StoreKey.ofOrigin(ticket.originUrl())),
                    "evicted: no pin left behind by the failed hit");
        }
    }

    /**
     * A miss whose part file cannot be made (its directory's place taken by a file, then the part file's by a
     * directory) fails with the file system's error, reserves nothing and leaves no fetch behind: once the way is
     * clear, the next request starts one.
     */
    @Test
    void aMissWhosePartFileCannotBeMadeReservesNothingAndLeavesNoFetch() throws Exception {
        byte[] content = new byte[4 << 10];
        Store store = Store.open(dir, 1 << 30, ClusterSettings::defaults);
        try (Downloads downloads = new Downloads(store, List.of(new WholeOrigin(content)), () -> 1 << 20)) {
            Ticket ticket = ticket("blocked.bin", content.length, 1);
            Path part = store.disk().partFile(org.gridcache.pool.store.StoreKey.ofOrigin(ticket.originUrl()));
            Files.createDirectories(part.getParent().getParent());
            Files.write(part.getParent(), new byte[0]); // the key's directory cannot be made
            assertThrows(java.nio.file.FileSystemException.class, () -> downloads.open(ticket));
            assertEquals(1 << 30, store.freeBytes(), "nothing reserved");

            Files.delete(part.getParent());
            Files.createDirectories(part); // the directory can be made, the part file cannot be created
            assertThrows(java.nio.file.FileSystemException.class, () -> downloads.open(ticket));
            assertEquals(1 << 30, store.freeBytes(), "the reservation given back");

            Files.delete(part);
            Downloads.Source source = downloads.open(ticket);
            source.file().close();
            assertTrue(source instanceof Downloads.Joined, "a fetch started now, none left from before: " + source);
            Download fill = ((Downloads.Joined) source).download(); // ended before the directory goes
            org.awaitility.Awaitility.await().atMost(java.time.Duration.ofSeconds(30)).until(() -> fill.state().ended());
        }
    }

    /** An anonymous read ticket for {@code http://o/NAME}. */
    /** Sends its file in pieces of 1 MiB on the caller's thread, then completes. */
    private static final class PiecesOrigin extends AnyOrigin {
        final Map<String, byte[]> files;

        PiecesOrigin(Map<String, byte[]> files) {
            this.files = files;
        }

        @Override
        public void fetch(URI origin, DownloadSink sink) {
            byte[] content = files.get(origin.getPath());
            try {
                sink.begin(content.length, 1, null);
                for (int at = 0; at < content.length; at += 1 << 20) {
                    sink.write(Unpooled.wrappedBuffer(content, at, Math.min(1 << 20, content.length - at)), () -> { });
                }
                sink.complete();
            } catch (FetchException e) {
                sink.fail(e);
            }
        }
    }

    /**
     * Fills take turns on the write queue: with one disk writer free, a large fill queued first writes one turn
     * ({@link WriteQueue#TURN_BYTES}) and queues again behind a small fill, which is committed before the large one
     * has written more; then the large one completes whole.
     */
    @Test
    void aLargeFillWritesOneTurnThenLetsASmallFillCommit() throws Exception {
        byte[] large = new byte[24 << 20];
        new java.util.Random(11).nextBytes(large);
        byte[] small = new byte[1000];
        Store store = Store.open(dir, 1 << 30, ClusterSettings::defaults);
        try (Downloads downloads = new Downloads(store, List.of(new PiecesOrigin(Map.of("/large.bin", large, "/small.bin", small))),
                () -> 64 << 20)) {
            CountDownLatch[] release = {new CountDownLatch(1), new CountDownLatch(1)};
            holdDiskWriters(downloads, release);
            Downloads.Joined largeJoined = (Downloads.Joined) downloads.open(ticket("large.bin", large.length, -1));
            Downloads.Joined smallJoined = (Downloads.Joined) downloads.open(ticket("small.bin", small.length, -1));
            largeJoined.file().close();
            smallJoined.file().close();
            Download largeFill = largeJoined.download();
            Download smallFill = smallJoined.download();
            long[] largeWrittenWhenSmallCommitted = {-1};
            CountDownLatch smallDone = new CountDownLatch(1);
            smallFill.addListener(d -> {
                if (d.state() == Download.State.COMPLETE && smallDone.getCount() > 0) {
                    largeWrittenWhenSmallCommitted[0] = largeFill.written();
                    smallDone.countDown();
                }
            });
            CountDownLatch largeDone = new CountDownLatch(1);
            largeFill.addListener(d -> {
                if (d.state() == Download.State.COMPLETE || d.state() == Download.State.FAILED) {
                    largeDone.countDown();
                }
            });
            release[0].countDown(); // one writer: the queue's order decides
            assertTrue(smallDone.await(30, TimeUnit.SECONDS), "the small fill committed with one writer");
            assertEquals(WriteQueue.TURN_BYTES, largeWrittenWhenSmallCommitted[0], "the large fill had written one turn");
            release[1].countDown();
            assertTrue(largeDone.await(30, TimeUnit.SECONDS));
            assertEquals(Download.State.COMPLETE, largeFill.state(), () -> String.valueOf(largeFill.failure()));
            StoreKey largeKey = StoreKey.ofOrigin("http://o/large.bin");
            Store.Opened opened = store.pinAndOpen(largeKey);
            assertNotNull(opened, "the large fill is stored");
            store.unpin(largeKey);
            try (FileChannel stored = opened.file()) {
                java.nio.ByteBuffer back = java.nio.ByteBuffer.allocate(large.length);
                while (back.hasRemaining() && stored.read(back) >= 0) {
                    continue;
                }
                assertTrue(java.util.Arrays.equals(large, back.array()), "every byte of the large fill stored");
            }
        }
    }

    /** Holds one disk writer per latch busy until that latch opens; returns once they all are. */
    private static void holdDiskWriters(Downloads downloads, CountDownLatch... releases) throws InterruptedException {
        CountDownLatch busy = new CountDownLatch(releases.length);
        for (CountDownLatch release : releases) {
            downloads.diskWriters().execute(() -> {
                busy.countDown();
                try {
                    release.await();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            });
        }
        assertTrue(busy.await(30, TimeUnit.SECONDS), "the disk writers held");
    }

    /**
     * A miss is opened on the pool's opener threads, never on the caller's (an event loop): its reservation may wait
     * for the evictor and it creates the part file. A hit is served on the caller's thread.
     */
    @Test
    void aMissIsOpenedOffTheCallersThreadAndAHitOnIt() throws Exception {
        Store store = Store.open(dir, 1 << 30, ClusterSettings::defaults);
        List<String> fetchedOn = new CopyOnWriteArrayList<>();
        OriginFetcher origin = new AnyOrigin() {
            @Override
            public void fetch(URI uri, DownloadSink sink) {
                fetchedOn.add(Thread.currentThread().getName());
                try {
                    sink.begin(3, 1, null);
                    sink.write(Unpooled.wrappedBuffer(new byte[] {1, 2, 3}), () -> { });
                    sink.complete();
                } catch (FetchException e) {
                    sink.fail(e);
                }
            }
        };
        try (Downloads downloads = new Downloads(store, List.of(origin), () -> 1 << 20)) {
            Ticket ticket = ticket("f", 3, 1);
            assertEquals(null, downloads.hit(ticket));
            Downloads.Source miss = downloads.openAsync(ticket).get(30, TimeUnit.SECONDS);
            assertTrue(miss instanceof Downloads.Joined);
            assertEquals(1, fetchedOn.size());
            assertTrue(fetchedOn.get(0).startsWith("pool-miss"), "fetched on " + fetchedOn.get(0));
            Download fill = ((Downloads.Joined) miss).download();
            org.awaitility.Awaitility.await().atMost(java.time.Duration.ofSeconds(30)).alias("the fill committed")
                    .until(() -> fill.state() == Download.State.COMPLETE);
            miss.file().close();
            store.unpin(miss.key());

            Downloads.Hit hit = downloads.hit(ticket);
            assertNotNull(hit, "committed: a hit, on the caller's thread");
            hit.file().close();
            store.unpin(hit.key());
            assertEquals(1, fetchedOn.size());
        }
    }

    private static Ticket ticket(String name, long size, long mtime) {
        return new Ticket("/" + name, "p", Ticket.READ, Long.MAX_VALUE, "anonymous", "door", "http://o/" + name, size, mtime);
    }
}
