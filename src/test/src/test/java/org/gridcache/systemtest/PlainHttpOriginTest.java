package org.gridcache.systemtest;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * An origin that is a plain HTTP file server (nginx without WebDAV, with autoindex): files are statted with HEAD and
 * cached, directories listed from the HTML index; a large file's fill goes past the page cache
 * ({@code pool.direct-writes}) and its concurrent clients, a slow one and a range among them, get it whole.
 */
@Timeout(value = 5, unit = TimeUnit.MINUTES)
class PlainHttpOriginTest {
    @TempDir
    static Path tmp;
    static NginxOrigin origin;
    static Standalone gridcache;
    static String door;
    static Path data;

    @BeforeAll
    static void start() throws Exception {
        Tools.require("fincore");
        data = Files.createDirectories(tmp.resolve("data"));
        Tools.randomFile(data.resolve("dir/plain.bin"), 2 << 20, 41);
        origin = NginxOrigin.startPlain(tmp.resolve("nginx"), data);
        gridcache = Standalone.start(tmp, origin.url());
        door = gridcache.door();
    }

    @AfterAll
    static void stop() throws Exception {
        Tools.closeAll(origin, gridcache);
    }

    @Test
    void filesAreReadAndCachedDirectoriesAreListedFromTheIndex() throws Exception {
        for (int i = 0; i < 2; i++) {
            Path out = tmp.resolve("plain-" + i);
            Tools.curl("-fL", "-o", out.toString(), door + "/dir/plain.bin").assertOk();
            assertEquals(Tools.sha256(data.resolve("dir/plain.bin")), Tools.sha256(out));
        }
        assertEquals(1, origin.count("GET", "/dir/plain.bin"));
        Tools.Result head = Tools.curl("-I", door + "/dir/plain.bin").assertOk();
        assertTrue(head.out().toLowerCase().contains("content-length: 2097152"), head.out());
        Tools.Result list = Tools.curl("-X", "PROPFIND", "-H", "Depth: 1", "-w", "\n%{http_code}", door + "/dir/").assertOk();
        assertTrue(list.out().endsWith("207") && list.out().contains("plain.bin"), list.out());
        Tools.Result html = Tools.curl("-w", "\n%{http_code}", door + "/dir/").assertOk();
        assertTrue(html.out().endsWith("200") && html.out().contains(">plain.bin</a>"), html.out());
    }

    /**
     * Issue 42 item 1: an origin mounted at a prefix ({@code origins add atlas --prefix /atlas}, the README's example) is
     * a collection there, though the plain HTTP server answers its URL with a 200 HTML index: a PROPFIND lists its
     * files, a browser's GET gets the door's listing, the root's listing shows it as a collection, and no pool ever
     * caches the index as a file {@code /atlas}.
     */
    @Test
    void anOriginMountedAtAPrefixIsACollectionThere() throws Exception {
        gridcache.admin("origins", "add", "atlas", "--prefix", "/atlas", "--url", origin.url() + "dir").assertOk();
        try {
            Tools.await("the door to see the mount", Duration.ofSeconds(30),
                    () -> Tools.curl("-o", "/dev/null", "-w", "%{http_code}", "-X", "PROPFIND", "-H", "Depth: 0", door + "/atlas/")
                            .out().equals("207"));
            Tools.Result list = Tools.curl("-X", "PROPFIND", "-H", "Depth: 1", "-w", "\n%{http_code}", door + "/atlas/").assertOk();
            assertTrue(list.out().endsWith("207") && list.out().contains("plain.bin"), list.out());
            assertTrue(list.out().contains("collection"), list.out());
            Tools.Result html = Tools.curl("-w", "\n%{http_code}", door + "/atlas/").assertOk();
            assertTrue(html.out().endsWith("200") && html.out().contains(">plain.bin</a>"), html.out());
            Tools.Result root = Tools.curl("-X", "PROPFIND", "-H", "Depth: 1", door + "/").assertOk();
            String atlas = root.out().substring(root.out().indexOf("/atlas"));
            atlas = atlas.substring(0, atlas.indexOf("response>"));
            assertTrue(atlas.contains("collection"), root.out());
            Path out = tmp.resolve("atlas-plain.bin");
            Tools.curl("-fL", "-o", out.toString(), door + "/atlas/plain.bin").assertOk();
            assertEquals(Tools.sha256(data.resolve("dir/plain.bin")), Tools.sha256(out));
        } finally {
            gridcache.admin("origins", "remove", "atlas").assertOk();
        }
    }

    /**
     * With {@code pool.direct-writes} set (off by default), a fill of a file at least that large is written past the
     * page cache: once its client has it, none of the stored file is in the page cache (fincore), so that client was
     * sent every byte from the fill's memory, none read back from the disk. Clients that join such a fill at once, one
     * slow and one asking for a range, all get their bytes whole from one origin request; a hit afterwards reads the
     * stored copy from the disk.
     */
    @Test
    void withDirectWritesALargeFillGoesPastThePageCacheAndEveryClientGetsItWhole() throws Exception {
        gridcache.admin("config", "set", "pool.direct-writes", "8M").assertOk();
        try {
            long size = 24L << 20;
            int[] fills = {0};
            // the setting reaches the pool through ZooKeeper: a fill of a new file until one leaves no page-cache pages
            Tools.await("the pool to write fills past the page cache", Duration.ofSeconds(60), () -> {
                try {
                    String name = "large-" + fills[0]++ + ".bin";
                    Path large = Tools.randomFile(data.resolve(name), size, 42 + fills[0]);
                    Path one = tmp.resolve(name);
                    Tools.curl("-fL", "-o", one.toString(), door + "/" + name).assertOk();
                    assertEquals(Tools.sha256(large), Tools.sha256(one));
                    return residentBytes(storedCopyOf(name)) == 0;
                } catch (Exception e) {
                    throw new IllegalStateException(e);
                }
            });

            Path joined = Tools.randomFile(data.resolve("joined.bin"), size, 43);
            long from = 10_000_000; // more than a quarter of the file: the client joins the fill (a smaller range is a block read)
            List<CompletableFuture<Tools.Result>> clients = Arrays.asList(
                    CompletableFuture.supplyAsync(() -> Tools.curl("-fL", "-o", tmp.resolve("joined-a").toString(), door + "/joined.bin")),
                    CompletableFuture.supplyAsync(() -> Tools.curl("-fL", "--limit-rate", "8M", "-o",
                            tmp.resolve("joined-slow").toString(), door + "/joined.bin")),
                    CompletableFuture.supplyAsync(() -> Tools.curl("-fL", "-r", from + "-", "-o", tmp.resolve("joined-range").toString(),
                            door + "/joined.bin")),
                    CompletableFuture.supplyAsync(() -> Tools.curl("-fL", "-o", tmp.resolve("joined-b").toString(), door + "/joined.bin")));
            for (CompletableFuture<Tools.Result> client : clients) {
                client.get(120, TimeUnit.SECONDS).assertOk();
            }
            String whole = Tools.sha256(joined);
            for (String name : new String[] {"joined-a", "joined-slow", "joined-b"}) {
                assertEquals(whole, Tools.sha256(tmp.resolve(name)), name);
            }
            byte[] tail = Arrays.copyOfRange(Files.readAllBytes(joined), (int) from, (int) size);
            assertTrue(Arrays.equals(tail, Files.readAllBytes(tmp.resolve("joined-range"))), "the range, byte for byte");
            assertEquals(1, origin.count("GET", "/joined.bin"), "one fill for the four clients");
            Path hit = tmp.resolve("joined-hit");
            Tools.curl("-fL", "-o", hit.toString(), door + "/joined.bin").assertOk();
            assertEquals(whole, Tools.sha256(hit), "a hit reads the stored copy from the disk");
        } finally {
            gridcache.admin("config", "set", "pool.direct-writes", "off").assertOk();
        }
    }

    /** Bytes of {@code file} in the page cache. */
    private static long residentBytes(Path file) {
        Tools.Result r = Tools.run(Duration.ofSeconds(30), "fincore", "--bytes", "--noheadings", "-o", "RES", file.toString()).assertOk();
        return Long.parseLong(r.out().trim());
    }

    /** The committed data file in the pool's store of the file {@code name}: its sidecar names its origin URL. */
    private static Path storedCopyOf(String name) throws Exception {
        Path store = gridcache.home().resolve("pool/data");
        Path[] found = new Path[1];
        Tools.await("the fill of " + name + " to be committed", Duration.ofSeconds(30)).until(() -> {
            try (var walk = Files.walk(store)) {
                for (Path sidecar : walk.filter(p -> p.toString().endsWith(".json")).toList()) {
                    if (Files.readString(sidecar).contains("/" + name + "\"")) {
                        String s = sidecar.toString();
                        found[0] = Path.of(s.substring(0, s.length() - ".json".length()));
                    }
                }
            }
            return found[0] != null;
        });
        return found[0];
    }
}
