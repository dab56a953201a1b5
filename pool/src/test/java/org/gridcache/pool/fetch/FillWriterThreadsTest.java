package org.gridcache.pool.fetch;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.io.IOException;
import java.net.URI;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.EnumSet;
import java.util.List;
import java.util.Random;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Stream;
import org.gridcache.common.ClusterSettings;
import org.gridcache.common.FillWriters;
import org.gridcache.common.Ticket;
import org.gridcache.common.checksum.ChecksumType;
import org.gridcache.pool.origin.OriginFetcher;
import org.gridcache.pool.store.Store;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Fills written by idle-class threads ({@code pool.fill-writers}), as the kernel reports each thread's scheduling
 * policy; the normal writers take over when the disk falls behind, and the file is whole either way.
 */
class FillWriterThreadsTest {
    private static final int SCHED_OTHER = 0;
    private static final int SCHED_IDLE = 5;

    @TempDir
    Path dir;

    /** The calling thread's scheduling policy: field 41 of /proc/thread-self/stat (after the parenthesised name). */
    private static int policyOfThisThread() throws IOException {
        String stat = Files.readString(Path.of("/proc/thread-self/stat"));
        return Integer.parseInt(stat.substring(stat.lastIndexOf(')') + 2).split(" ")[38]);
    }

    private static <T> T on(FillWriterThreads writers, Callable<T> work) throws Exception {
        return on(writers, false, work);
    }

    private static <T> T on(FillWriterThreads writers, boolean expedited, Callable<T> work) throws Exception {
        CompletableFuture<T> result = new CompletableFuture<>();
        writers.execute(() -> {
            try {
                result.complete(work.call());
            } catch (Throwable e) {
                result.completeExceptionally(e);
            }
        }, expedited);
        return result.get(30, TimeUnit.SECONDS);
    }

    @Test
    void idleWritesRunInTheIdleClassUntilAQuarterOfTheWriteBehindWaits() throws Exception {
        assertTrue(IdleClass.available(), "Linux, with JNA's native part loaded");
        WriteBehindBudget budget = new WriteBehindBudget(() -> 100);
        AtomicReference<FillWriters> setting = new AtomicReference<>(FillWriters.IDLE);
        ExecutorService normal = Executors.newSingleThreadExecutor();
        FillWriterThreads writers = new FillWriterThreads(normal, setting::get, budget);
        try {
            assertEquals(SCHED_IDLE, on(writers, FillWriterThreadsTest::policyOfThisThread));
            assertTrue(on(writers, IdleClass::isCurrent));
            assertEquals(SCHED_OTHER, policyOfThisThread(), "the thread that asked keeps its class");
            budget.take(24, () -> { });
            assertEquals(SCHED_IDLE, on(writers, FillWriterThreadsTest::policyOfThisThread), "under a quarter");
            budget.take(1, () -> { });
            assertEquals(SCHED_OTHER, on(writers, FillWriterThreadsTest::policyOfThisThread), "a quarter waits: normal writers");
            budget.give(25);
            assertEquals(SCHED_IDLE, on(writers, FillWriterThreadsTest::policyOfThisThread));
            assertEquals(SCHED_OTHER, on(writers, true, FillWriterThreadsTest::policyOfThisThread),
                    "a fill a client waits for whole: normal writers");
            setting.set(FillWriters.NORMAL);
            assertEquals(SCHED_OTHER, on(writers, FillWriterThreadsTest::policyOfThisThread), "normal: as the setting says");
            assertFalse(on(writers, IdleClass::isCurrent));
        } finally {
            writers.shutdown();
            normal.shutdown();
        }
    }

    @Test
    void anIdleWriterHandsOverWhenTheDiskFallsBehindItsFillIsWaitedForOrTheSettingChanges() throws Exception {
        WriteBehindBudget budget = new WriteBehindBudget(() -> 100);
        AtomicReference<FillWriters> setting = new AtomicReference<>(FillWriters.IDLE);
        ExecutorService normal = Executors.newSingleThreadExecutor();
        FillWriterThreads writers = new FillWriterThreads(normal, setting::get, budget);
        try {
            assertEquals(List.of(false, true, false, true, true), on(writers, () -> {
                boolean early = writers.handOver(false);
                budget.take(30, () -> { });
                boolean behind = writers.handOver(false);
                budget.give(30);
                boolean caughtUp = writers.handOver(false);
                boolean waitedFor = writers.handOver(true);
                setting.set(FillWriters.NORMAL);
                return List.of(early, behind, caughtUp, waitedFor, writers.handOver(false));
            }));
            assertEquals(3, writers.handOvers());
            assertFalse(normalHandsOver(normal, writers, budget), "a normal writer never hands over");
        } finally {
            writers.shutdown();
            normal.shutdown();
        }
    }

    private static boolean normalHandsOver(ExecutorService normal, FillWriterThreads writers, WriteBehindBudget budget) throws Exception {
        budget.take(90, () -> { });
        return normal.submit(() -> writers.handOver(true)).get(30, TimeUnit.SECONDS);
    }

    /**
     * A fill begun on an idle-class writer, whose disk falls behind while that writer waits for its part file, goes on
     * on the normal writers after its first write, and the stored file is every byte in order.
     */
    @Test
    void aFillHandedOverMidwayIsStoredWhole() throws Exception {
        byte[] content = new byte[4 << 20];
        new Random(7).nextBytes(content);
        Store store = Store.open(dir, 1 << 30, ClusterSettings::defaults);
        CountDownLatch allSent = new CountDownLatch(1);
        AtomicBoolean openedOnIdle = new AtomicBoolean();
        OriginFetcher origin = new OriginFetcher() {
            @Override
            public boolean supports(URI uri) {
                return true;
            }

            @Override
            public void fetch(URI uri, DownloadSink sink) {
                new Thread(() -> {
                    try {
                        sink.begin(content.length, 1, null);
                        // a first piece under a quarter of the write-behind: its write goes to an idle-class writer
                        for (int at = 0, n = 64 << 10; at < content.length; at += n, n = Math.min(200_000, content.length - at)) {
                            ByteBuf piece = Unpooled.directBuffer(n).writeBytes(content, at, n);
                            sink.write(piece, () -> { }); // past the budget too: the writer's hand-over is what is tested
                            piece.release();
                        }
                        allSent.countDown();
                        sink.complete();
                    } catch (FetchException e) {
                        sink.fail(e);
                    }
                }).start();
            }

            @Override
            public void close() {
            }
        };
        try (Downloads downloads = new Downloads(store, List.of(origin), () -> 1 << 20, null,
                () -> EnumSet.of(ChecksumType.ADLER32), () -> Long.MAX_VALUE, () -> FillWriters.IDLE)) {
            downloads.partFiles = key -> new Download.PartFile() {
                @Override
                public FileChannel open() throws IOException {
                    openedOnIdle.set(IdleClass.isCurrent()); // at the first write, on its writer
                    try {
                        assertTrue(allSent.await(30, TimeUnit.SECONDS));
                    } catch (InterruptedException e) {
                        throw new IOException(e);
                    }
                    return store.disk().openPart(key);
                }

                @Override
                public FileChannel openDirect() throws IOException {
                    throw new IOException("fills past the page cache are off here");
                }
            };
            Downloads.Joined joined = (Downloads.Joined) downloads.open(
                    new Ticket("/f.bin", "p", Ticket.READ, Long.MAX_VALUE, "anonymous", "door", "http://o/f.bin", content.length, 1));
            joined.file().close();
            Download download = joined.download();
            CountDownLatch ended = new CountDownLatch(1);
            download.addListener(new Download.Listener() {
                @Override
                public void changed(Download d) {
                    if (d.state() == Download.State.COMPLETE || d.state() == Download.State.FAILED) {
                        ended.countDown();
                    }
                }

                @Override
                public long readingFrom() {
                    return Long.MAX_VALUE;
                }
            });
            assertTrue(ended.await(60, TimeUnit.SECONDS), "the fill ended");
            assertEquals(Download.State.COMPLETE, download.state(), () -> String.valueOf(download.failure()));
            assertTrue(openedOnIdle.get(), "the first write was an idle-class writer's");
            // once: the idle writer ended its task there, and the normal writers, which never hand over, wrote the rest
            assertEquals(1, downloads.fillHandOvers(), "then the normal writers took over");
            try (Stream<Path> files = Files.walk(dir.resolve("data"))) {
                Path data = files.filter(Files::isRegularFile).filter(f -> !f.toString().endsWith(Store.SIDECAR)).findFirst().orElseThrow();
                assertArrayEquals(content, Files.readAllBytes(data));
            }
            assertEquals(0, downloads.writeBehindBytes());
        }
    }
}
