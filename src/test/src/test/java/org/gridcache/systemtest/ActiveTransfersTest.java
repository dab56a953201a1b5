package org.gridcache.systemtest;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.gridcache.common.Json;
import org.gridcache.common.cluster.TransferList;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 42 items 7 and 9: transfers in progress where people look. A slow read (curl at 2 MiB/s) and a slow upload
 * through a pool are listed, bytes growing, on the door's {@code /.gridcache/api/v1/transfers}, its status page and
 * by {@code gridcache transfers} (once, and with {@code --watch}); a PUT whose 307 curl does not follow reaches no
 * pool and is listed nowhere.
 */
@Timeout(value = 6, unit = TimeUnit.MINUTES)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class ActiveTransfersTest {
    private static final String API = "/.gridcache/api/v1/transfers";
    @TempDir
    static Path tmp;
    static Path data;
    static NginxOrigin origin;
    static Standalone gridcache;
    static String door;
    private final List<Process> clients = new ArrayList<>();

    @BeforeAll
    static void start() throws Exception {
        Tools.require("curl", "nginx");
        data = Files.createDirectories(tmp.resolve("data"));
        origin = NginxOrigin.startWritable(tmp.resolve("nginx"), data);
        gridcache = Standalone.start(tmp, origin.url());
        door = gridcache.door();
    }

    @AfterEach
    void stopClients() throws InterruptedException {
        for (Process p : clients) {
            p.destroy();
            p.waitFor();
        }
        Tools.await("no transfer left listed", Duration.ofSeconds(30), () -> transfers().transfers().isEmpty());
    }

    @AfterAll
    static void stop() throws Exception {
        Tools.closeAll(gridcache, origin);
    }

    @Test
    void aSlowReadIsListedWithGrowingBytesOnTheApiTheStatusPageAndByTheCommand() throws Exception {
        Tools.randomFile(data.resolve("slow-read.bin"), 96L << 20, 81);
        slowly("-L", "-o", "/dev/null", door + "/slow-read.bin");
        TransferList.Entry first = awaitListed("/slow-read.bin", e -> e.bytes() > 0);
        assertEquals("miss", first.kind());
        assertEquals("pool1", first.pool());
        assertEquals("anonymous", first.subject());
        assertEquals(96L << 20, first.size());
        awaitListed("/slow-read.bin", e -> e.bytes() > first.bytes() && e.bytesPerSec() > 0);

        String page = Tools.curl("-f", door + "/.gridcache/status").assertOk().out();
        assertTrue(page.contains("<tr class=\"transfer\" data-kind=\"miss\"><td>anonymous</td><td class=\"path\">/slow-read.bin</td>"
                + "<td>pool1</td><td>miss</td>"), page);
        assertTrue(page.contains(" of 96.0 MiB</td><td><span class=\"bar\">"), page);
        assertTrue(page.contains("<a href=\"api/v1/transfers\">"), page);

        String once = gridcache.admin("transfers").assertOk().out();
        assertTrue(once.startsWith("1 transfer in progress at 1 pool"), once);
        assertTrue(once.matches("(?s).*miss +pool1 +anonymous +/slow-read\\.bin\n +\\[[#.]{24}\\] +[0-9]+% +[0-9.]+ (B|KiB|MiB|GiB) of 96\\.0 MiB .*ETA .*"),
                once);

        String watched = gridcache.admin("transfers", "--watch", "--count", "2").assertOk().out();
        assertEquals(2, watched.split("1 transfer in progress at 1 pool", -1).length - 1, "two screens:\n" + watched);
        assertEquals(2, watched.split("/slow-read.bin", -1).length - 1, watched);
    }

    @Test
    void aSlowUploadThroughAPoolIsListedAsAnUpload() throws Exception {
        Path file = Tools.randomFile(tmp.resolve("slow-up.bin"), 24L << 20, 82);
        slowly("-o", "/dev/null", "-H", "Expect: 100-continue", "-L", "-T", file.toString(), door + "/slow-up.bin");
        TransferList.Entry first = awaitListed("/slow-up.bin", e -> e.bytes() > 0);
        assertEquals("upload", first.kind());
        assertEquals(24L << 20, first.size());
        awaitListed("/slow-up.bin", e -> e.bytes() > first.bytes());
    }

    /**
     * Item 9: curl without -L gets the door's 307, exits 0 and stores nothing. Only pools list transfers, and no pool
     * saw this PUT: the pool's count of answers (every PUT it takes ends in one, counted before it is sent) stays as
     * it was across it, and grows by exactly one for the followed upload after it. While that upload is held open
     * half-sent, so surely in progress, the API, the status page and {@code gridcache transfers} list it and nothing
     * else. First, so that no answer to another test's client can be counted late in between.
     */
    @Test
    @Order(1)
    void aPutWhose307IsNotFollowedReachesNoPoolAndIsListedNowhere() throws Exception {
        long answered = poolAnswers();
        Path file = Tools.randomFile(tmp.resolve("unfollowed.bin"), 8L << 20, 84);
        Tools.Result put = Tools.curl("-o", "/dev/null", "-w", "%{http_code}", "-T", file.toString(), door + "/unfollowed.bin")
                .assertOk();
        assertEquals("307", put.out());
        assertEquals(answered, poolAnswers(), "no pool answered the unfollowed PUT");

        try (HeldUpload held = HeldUpload.start(door + "/held.bin", 8L << 20)) {
            TransferList.Entry listed = awaitListed("/held.bin", e -> e.bytes() > 0);
            assertEquals("upload", listed.kind());
            assertEquals(List.of("/held.bin"), transfers().transfers().stream().map(TransferList.Entry::path).toList());
            String page = Tools.curl("-f", door + "/.gridcache/status").assertOk().out();
            assertTrue(page.contains("<td class=\"path\">/held.bin</td>") && !page.contains("unfollowed"), page);
            String command = gridcache.admin("transfers").assertOk().out();
            assertTrue(command.startsWith("1 transfer in progress at 1 pool") && command.contains("/held.bin"), command);
            assertFalse(command.contains("unfollowed"), command);
            assertEquals(201, held.finish());
        }
        assertEquals(answered + 1, poolAnswers(), "the held upload is the one PUT a pool answered");
        assertFalse(Files.exists(data.resolve("unfollowed.bin")), "nothing stored at the origin");
        assertEquals(8L << 20, Files.size(data.resolve("held.bin")));
        assertEquals("404", Tools.curl("-o", "/dev/null", "-w", "%{http_code}", "-L", door + "/unfollowed.bin").out());
    }

    /** Every answer the pool sent so far ({@code gridcache_pool_responses_total}, all statuses). */
    private static long poolAnswers() {
        String pools = Tools.curl("-f", door + "/.gridcache/api/v1/pools").assertOk().out();
        String url = Json.read(pools.getBytes(StandardCharsets.UTF_8), com.fasterxml.jackson.databind.JsonNode.class)
                .get("pools").get(0).get("url").asText();
        return Tools.curl("-f", url + "/.gridcache/metrics").assertOk().out().lines()
                .filter(l -> l.startsWith("gridcache_pool_responses_total{"))
                .mapToLong(l -> (long) Double.parseDouble(l.substring(l.lastIndexOf(' ') + 1))).sum();
    }

    /** curl at 2 MiB/s in the background, stopped after the test. */
    private void slowly(String... args) throws Exception {
        List<String> cmd = new ArrayList<>(List.of("curl", "-sS", "--limit-rate", "2M"));
        cmd.addAll(List.of(args));
        clients.add(new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(tmp.resolve("curl.out").toFile()).start());
    }

    private static TransferList transfers() {
        return transfers(Tools.curl("-f", door + API).assertOk().out());
    }

    private static TransferList transfers(String json) {
        return Json.read(json.getBytes(StandardCharsets.UTF_8), TransferList.class);
    }

    /** The API's entry of {@code path} now; every answer read is added to {@code seen}. */
    private static Optional<TransferList.Entry> listed(String path, List<String> seen) {
        String json = Tools.curl("-f", door + API).assertOk().out();
        seen.add(json);
        return transfers(json).transfers().stream().filter(e -> e.path().equals(path)).findFirst();
    }

    private static TransferList.Entry awaitListed(String path, java.util.function.Predicate<TransferList.Entry> until) {
        List<String> seen = new ArrayList<>();
        Tools.await(path + " listed on " + API, Duration.ofSeconds(30), () -> listed(path, seen).filter(until).isPresent());
        return listed(path, seen).orElseThrow(() -> new AssertionError(path + " no longer listed: " + seen.get(seen.size() - 1)));
    }
}
