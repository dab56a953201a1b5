package org.gridcache.gridftp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedReader;
import java.io.StringReader;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.globus.ftp.MlsxEntry;
import org.globus.ftp.vanilla.Reply;
import org.junit.jupiter.api.Test;

/** Reply classification, CKSM replies, MLSx entries and the watchdog: the concerns of a connection that need no server. */
class GridFtpRepliesTest {

    private static Reply reply(String line) throws Exception {
        return new Reply(new BufferedReader(new StringReader(line + "\r\n")));
    }

    @Test
    void aLocalFailureGivesWayToTheServersOwnReasonReadAfterIt() throws Exception {
        GridFtpException brokenPipe = new GridFtpException(GridFtpException.Kind.FAILED,
                "GridFTP server h:1 refused STOR /f: 451 exception during TransferSourceThread java.net.SocketException: Broken pipe");
        GridFtpException full = ReplyClassifier.withServersWord(brokenPipe, "h:1", "STOR /f",
                reply("451 Local resource failure: malloc: No space left on device."));
        assertEquals(GridFtpException.Kind.NO_SPACE, full.kind());
        assertEquals(507, full.httpStatus());
        assertEquals("GridFTP server h:1 refused STOR /f: 451 Local resource failure: malloc: No space left on device.", full.getMessage());
        assertEquals(brokenPipe, ReplyClassifier.withServersWord(brokenPipe, "h:1", "STOR /f", reply("426 Data connection closed")),
                "a reply that says no more keeps the local failure");
        assertEquals(brokenPipe, ReplyClassifier.withServersWord(brokenPipe, "h:1", "STOR /f", null));
        GridFtpException denied = new GridFtpException(GridFtpException.Kind.DENIED, "refused");
        assertEquals(denied, ReplyClassifier.withServersWord(denied, "h:1", "STOR /f", reply("451 No space left on device")),
                "a failure already classified stays as it is");
    }

    @Test
    void theServersReplyReadByTheTransferIsItsLastNegativeReplySinceTheTransferBegan() throws Exception {
        Reply opening = reply("150 Opening BINARY mode data connection.");
        Reply full = reply("451 Local resource failure: malloc: No space left on device.");
        assertSame(full, ReplyClassifier.newNegativeReply(opening, full), "read by jGlobus' monitor after the transfer began");
        assertNull(ReplyClassifier.newNegativeReply(full, full), "the same reply as before the transfer: an earlier command's");
        assertNull(ReplyClassifier.newNegativeReply(opening, reply("226 Transfer complete.")), "not a refusal");
        assertNull(ReplyClassifier.newNegativeReply(opening, null));
    }

    @Test
    void repliesAreSortedByCodeAndText() {
        assertEquals(GridFtpException.Kind.DENIED, ReplyClassifier.classify(530, "530 Login incorrect", false));
        assertEquals(GridFtpException.Kind.DENIED, ReplyClassifier.classify(500, "500 Permission denied", false));
        assertEquals(GridFtpException.Kind.DENIED, ReplyClassifier.classify(-1, "the proxy has expired", true), "a refusal before a timeout");
        assertEquals(GridFtpException.Kind.NOT_FOUND, ReplyClassifier.classify(550, "550 /x", false));
        assertEquals(GridFtpException.Kind.NOT_FOUND, ReplyClassifier.classify(500, "500 File does not exist", false));
        assertEquals(GridFtpException.Kind.UNREACHABLE, ReplyClassifier.classify(-1, "Reply wait timeout", true));
        assertEquals(GridFtpException.Kind.FAILED, ReplyClassifier.classify(451, "451 local error", false));
        assertEquals(502, new GridFtpException(ReplyClassifier.classify(451, "451", false), "x").httpStatus());
    }

    @Test
    void writeRefusalsAreSortedByWhatTheServerSays() {
        // globus-gridftp-server's replies (GridFtpWritesTest shows them whole)
        assertEquals(GridFtpException.Kind.CONFLICT, ReplyClassifier.classify(451,
                "451 GlobusError: v=1 c=INTERNAL_ERROR 451-GridFTP-Errno: 39 451-GridFTP-Error-String: Directory not empty", false));
        assertEquals(GridFtpException.Kind.EXISTS, ReplyClassifier.classify(553,
                "553 GlobusError: v=1 c=PATH_EXISTS 553-GridFTP-Errno: 17 553-GridFTP-Error-String: File exists", false));
        assertEquals(GridFtpException.Kind.DENIED, ReplyClassifier.classify(550,
                "550 GlobusError: v=1 c=PERMISSION_DENIED 550-GridFTP-Error-String: Permission denied", false));
        assertEquals(GridFtpException.Kind.NOT_FOUND, ReplyClassifier.classify(550,
                "550 GlobusError: v=1 c=PATH_NOT_FOUND 550-GridFTP-Error-String: No such file or directory", false));
        assertEquals(GridFtpException.Kind.NO_SPACE, ReplyClassifier.classify(452, "452 Insufficient storage space", false));
        assertEquals(GridFtpException.Kind.NO_SPACE, ReplyClassifier.classify(552, "552 Exceeded storage allocation", false));
        assertEquals(GridFtpException.Kind.NO_SPACE, ReplyClassifier.classify(451, "451 System error in write: No space left on device", false));
        assertEquals(GridFtpException.Kind.CONFLICT, ReplyClassifier.classify(550, "550 System error in open: Not a directory", false));
        assertEquals(List.of(412, 409, 507), List.of(new GridFtpException(GridFtpException.Kind.EXISTS, "x").httpStatus(),
                new GridFtpException(GridFtpException.Kind.CONFLICT, "x").httpStatus(), new GridFtpException(GridFtpException.Kind.NO_SPACE, "x").httpStatus()));
        assertTrue(new GridFtpException(GridFtpException.Kind.NO_SPACE, "452 full").reason("atlas", "Alice", "/atlas/f")
                .startsWith("origin atlas is out of space"));
    }

    @Test
    void longRepliesLoseTheirStackTraces() {
        assertEquals("500 boom", ReplyClassifier.shorten("500 boom at org.globus.ftp.Foo.bar(Foo.java:1)"));
        assertEquals(401, ReplyClassifier.shorten("x".repeat(1000)).length());
        assertEquals("a b", ReplyClassifier.oneLine(new RuntimeException(" a\n b ")));
        assertEquals("IllegalStateException", ReplyClassifier.oneLine(new IllegalStateException()));
    }

    @Test
    void checksumRepliesTellAValueFromAnAlgorithmNotOffered() throws Exception {
        assertEquals("CKSM ADLER32 0 -1 /data/f", ChecksumCommand.command(Checksum.ADLER32, "/data/f"));
        assertEquals("0000abcd", ChecksumCommand.value(Checksum.ADLER32, reply("213 ABCD")));
        assertNull(ChecksumCommand.value(Checksum.MD5, reply("213 ")));
        assertTrue(ChecksumCommand.notOffered(GridFtpException.Kind.FAILED, reply("500 Unknown algorithm MD5")));
        assertTrue(ChecksumCommand.notOffered(GridFtpException.Kind.FAILED, reply("504 Command not implemented")));
        assertFalse(ChecksumCommand.notOffered(GridFtpException.Kind.FAILED, reply("500 No such file")));
        assertFalse(ChecksumCommand.notOffered(GridFtpException.Kind.NOT_FOUND, reply("550 missing")));
        assertFalse(ChecksumCommand.notOffered(GridFtpException.Kind.FAILED, reply("451 Local error")));
        assertFalse(ChecksumCommand.notOffered(GridFtpException.Kind.FAILED, null));
    }

    @Test
    void mlsxEntriesGiveSizeTimeAndType() throws Exception {
        RemoteEntry file = MlsxParser.entry(new MlsxEntry("Type=file;Size=12;Modify=20231114221320; /data/a b.bin"), "a b.bin");
        assertEquals(new RemoteEntry("a b.bin", false, 12, 1_700_000_000_000L), file);
        RemoteEntry dir = MlsxParser.entry(new MlsxEntry("Type=dir;Size=4096; sub"), "sub");
        assertEquals(new RemoteEntry("sub", true, -1, -1), dir);
        assertTrue(MlsxParser.isSelfOrParent(new MlsxEntry("Type=cdir; .")));
        assertTrue(MlsxParser.isSelfOrParent(new MlsxEntry("Type=pdir; ..")));
        assertFalse(MlsxParser.isSelfOrParent(new MlsxEntry("Type=dir; sub")));
        assertEquals(List.of("f", "d", ""), List.of(MlsxParser.lastSegment("/a/f"), MlsxParser.lastSegment("/a/d/"), MlsxParser.lastSegment("/")));
    }

    @Test
    void theWatchdogFiresOnceAfterTheLimitWithoutProgress() {
        AtomicLong clock = new AtomicLong();
        AtomicLong bytes = new AtomicLong();
        AtomicInteger stalls = new AtomicInteger();
        TransferWatchdog w = new TransferWatchdog(bytes::get, java.time.Duration.ofSeconds(10), clock::get, null, stalls::incrementAndGet);
        w.run();
        clock.addAndGet(9_000_000_000L);
        bytes.addAndGet(100); // progress resets the wait
        w.run();
        clock.addAndGet(9_000_000_000L);
        w.run();
        assertFalse(w.fired());
        clock.addAndGet(2_000_000_000L);
        w.run();
        assertTrue(w.fired());
        clock.addAndGet(20_000_000_000L);
        w.run();
        assertEquals(1, stalls.get());
        w.stop();
    }

    /**
     * jGlobus' task thread, stopped before it runs (as a refused ERET stops its data channel's at once), clears the
     * stop when it starts and waits for tasks for ever; its join with it. The watchdog interrupts a transfer thread
     * it finds in that join twice, which ends the join.
     */
    @Test
    void aTransferThreadStuckJoiningJGlobusTaskThreadIsFreed() throws Exception {
        org.globus.ftp.dc.TaskThread tasks = new org.globus.ftp.dc.TaskThread();
        tasks.stop();
        tasks.start(); // runs after the stop: clears it, and waits for a task that never comes
        Thread joiner = new Thread(tasks::join, "transfer");
        joiner.start();
        TransferWatchdog w = new TransferWatchdog(() -> 0, java.time.Duration.ofHours(1), System::nanoTime, joiner, () -> { });
        long deadline = System.nanoTime() + java.util.concurrent.TimeUnit.SECONDS.toNanos(30);
        while (!TransferWatchdog.inTaskThreadJoin(joiner)) { // the join has begun (or the test ends at the deadline)
            org.junit.jupiter.api.Assertions.assertTrue(System.nanoTime() < deadline, "the joiner never waited in the join");
            Thread.onSpinWait();
        }
        w.run();
        org.junit.jupiter.api.Assertions.assertTrue(joiner.isAlive(), "one sighting is not enough: a join may be ending");
        w.run();
        joiner.join(30_000);
        org.junit.jupiter.api.Assertions.assertFalse(joiner.isAlive(), "the second sighting interrupted the join");
        tasks.stop(); // the task thread itself: woken now that it waits
    }
}
