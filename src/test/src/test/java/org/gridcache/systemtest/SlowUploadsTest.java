package org.gridcache.systemtest;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 39, row 8: clients that drip their upload bodies neither starve the door's other clients nor hold it for ever:
 * a GET is answered while 200 such PUTs are still coming, and each of them is cut with 408 once its body falls behind
 * the door's minimum rate, with nothing written at the origin.
 */
@Timeout(value = 5, unit = TimeUnit.MINUTES)
class SlowUploadsTest {
    private static final int SLOW = 200;
    @TempDir
    static Path tmp;
    static Standalone gridcache;
    static Path data;
    static URI door;

    @BeforeAll
    static void start() throws Exception {
        data = Files.createDirectories(tmp.resolve("data"));
        Files.writeString(data.resolve("f.txt"), "f\n");
        gridcache = Standalone.start(tmp, data.toString());
        door = URI.create(gridcache.door());
    }

    @AfterAll
    static void stop() throws Exception {
        Tools.closeAll(gridcache);
    }

    @Test
    void slowBodiesLeaveTheDoorToOthersAndAreCutWith408() throws Exception {
        List<Socket> uploads = new ArrayList<>();
        ExecutorService readers = Executors.newFixedThreadPool(SLOW);
        ScheduledExecutorService drip = Executors.newSingleThreadScheduledExecutor();
        try {
            List<CompletableFuture<String>> answers = new ArrayList<>();
            for (int i = 0; i < SLOW; i++) {
                Socket upload = new Socket(door.getHost(), door.getPort());
                upload.getOutputStream().write(("PUT /slow-" + i + ".bin HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 100000\r\n\r\n")
                        .getBytes(StandardCharsets.ISO_8859_1));
                uploads.add(upload);
                answers.add(CompletableFuture.supplyAsync(() -> statusLine(upload), readers));
            }
            drip.scheduleAtFixedRate(() -> uploads.forEach(SlowUploadsTest::oneByte), 0, 1, TimeUnit.SECONDS);

            long start = System.nanoTime();
            RawHttp.Exchange get = RawHttp.exchange(door.getHost(), door.getPort(),
                    "GET /f.txt HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n".getBytes(StandardCharsets.ISO_8859_1),
                    Duration.ofSeconds(60));
            System.out.printf("a GET beside %d dripping uploads: answered in %d ms%n", SLOW, (System.nanoTime() - start) / 1_000_000);
            assertEquals(302, get.firstStatus(), "the GET's answer");
            assertEquals(0, answers.stream().filter(CompletableFuture::isDone).count(), "every upload was still coming");

            await().atMost(Duration.ofMinutes(3)).pollInterval(Duration.ofSeconds(1))
                    .until(() -> answers.stream().allMatch(CompletableFuture::isDone));
            List<String> statuses = answers.stream().map(CompletableFuture::join).distinct().toList();
            assertEquals(List.of("HTTP/1.1 408 Request Timeout"), statuses);
            try (Stream<Path> files = Files.walk(data)) {
                assertEquals(List.of(data.resolve("f.txt")), files.filter(Files::isRegularFile).toList(), "nothing written");
            }
            String log = gridcache.output();
            assertEquals(1, log.lines().filter(l -> l.contains("/slow-7.bin") && l.contains("408")).count(),
                    "one line for a cut upload:\n" + log.lines().filter(l -> l.contains("/slow-7.bin")).toList());
        } finally {
            drip.shutdownNow();
            for (Socket upload : uploads) {
                upload.close();
            }
            readers.shutdownNow();
        }
    }

    /** The small bodies the door reads whole (here a PROPFIND's) are cut the same way. */
    @Test
    void aDrippingPropfindBodyIsCutWith408() throws Exception {
        ScheduledExecutorService drip = Executors.newSingleThreadScheduledExecutor();
        try (Socket propfind = new Socket(door.getHost(), door.getPort())) {
            propfind.getOutputStream().write("PROPFIND / HTTP/1.1\r\nHost: 127.0.0.1\r\nDepth: 0\r\nContent-Length: 10000\r\n\r\n"
                    .getBytes(StandardCharsets.ISO_8859_1));
            drip.scheduleAtFixedRate(() -> oneByte(propfind), 0, 1, TimeUnit.SECONDS);
            assertEquals("HTTP/1.1 408 Request Timeout", statusLine(propfind));
        } finally {
            drip.shutdownNow();
        }
    }

    private static String statusLine(Socket upload) {
        try {
            upload.setSoTimeout((int) Duration.ofMinutes(4).toMillis());
            String line = new BufferedReader(new InputStreamReader(upload.getInputStream(), StandardCharsets.ISO_8859_1)).readLine();
            return line == null ? "closed without an answer" : line;
        } catch (IOException e) {
            return e.toString();
        }
    }

    private static void oneByte(Socket upload) {
        try {
            upload.getOutputStream().write('x');
        } catch (IOException e) {
            // answered and closed: nothing more to send
        }
    }
}
