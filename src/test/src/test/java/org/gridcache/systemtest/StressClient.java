package org.gridcache.systemtest;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.LongAdder;

/**
 * What {@link StressTest}'s clients do, each transfer checked: a whole read (a miss or a hit) or a Range read through
 * the door's redirect, byte-exact against the origin's file; an upload (PUT through the door), byte-exact at the
 * origin; a client that goes away mid-transfer. Every answer is counted by kind and status; a status the kind does
 * not allow (a 5xx other than 503 and 507, the pool's "busy" and "store full") or bytes that differ is a violation,
 * kept with the seed's replay line.
 */
final class StressClient {
    private static final Duration TIMEOUT = Duration.ofSeconds(60);
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5))
            .followRedirects(HttpClient.Redirect.NEVER).version(HttpClient.Version.HTTP_1_1).build();
    private final String door;
    private final Path data;
    /** The sha-256 of every file the origin holds, by path ("/f3.bin"): the originals and the uploads done. */
    final Map<String, String> digests = new ConcurrentHashMap<>();
    final Map<String, LongAdder> counts = new ConcurrentHashMap<>();
    final ConcurrentLinkedQueue<String> violations = new ConcurrentLinkedQueue<>();

    StressClient(String door, Path data) {
        this.door = door;
        this.data = data;
    }

    private void count(String kind, Object status) {
        counts.computeIfAbsent(kind + " " + status, k -> new LongAdder()).increment();
    }

    private void violation(String what) {
        violations.add(what);
    }

    /** The pool URL (with its ticket) the door sends a GET of {@code path} to; null when it answered otherwise. */
    private URI redirect(String kind, String path) throws IOException, InterruptedException {
        HttpResponse<Void> r = http.send(HttpRequest.newBuilder(URI.create(door + path)).timeout(TIMEOUT).build(),
                HttpResponse.BodyHandlers.discarding());
        if (r.statusCode() != 302) {
            count(kind + " door", r.statusCode());
            if (r.statusCode() != 503) {
                violation(kind + " " + path + ": the door answered " + r.statusCode());
            }
            return null;
        }
        return URI.create(r.headers().firstValue("Location").orElseThrow());
    }

    private static boolean busyOrFull(int status) {
        return status == 503 || status == 507;
    }

    /** Reads {@code path} whole; true when it came byte-exact (false when the pool said 503/507). */
    boolean read(String path) throws IOException, InterruptedException {
        URI pool = redirect("read", path);
        if (pool == null) {
            return false;
        }
        HttpResponse<InputStream> r = http.send(HttpRequest.newBuilder(pool).timeout(TIMEOUT).build(),
                HttpResponse.BodyHandlers.ofInputStream());
        String cache = r.headers().firstValue("X-Cache").orElse("-");
        count("read", r.statusCode() + " " + cache);
        try (InputStream body = r.body()) {
            if (r.statusCode() != 200) {
                if (!busyOrFull(r.statusCode())) {
                    violation("read " + path + ": " + r.statusCode() + " " + new String(body.readAllBytes(), StandardCharsets.UTF_8));
                }
                return false;
            }
            String got = Tools.sha256(body);
            if (!got.equals(digests.get(path))) {
                violation("read " + path + " (" + cache + "): sha256 " + got + " is not the origin's " + digests.get(path));
                return false;
            }
            return true;
        }
    }

    /** Reads bytes {@code [from, from + length)} of {@code path} (a block read on a miss), compared with the origin's. */
    void range(String path, long from, int length) throws IOException, InterruptedException {
        URI pool = redirect("range", path);
        if (pool == null) {
            return;
        }
        HttpResponse<byte[]> r = http.send(HttpRequest.newBuilder(pool).timeout(TIMEOUT)
                .header("Range", "bytes=" + from + "-" + (from + length - 1)).build(), HttpResponse.BodyHandlers.ofByteArray());
        count("range", r.statusCode() + " " + r.headers().firstValue("X-Cache").orElse("-"));
        if (r.statusCode() != 206) {
            if (!busyOrFull(r.statusCode())) {
                violation("range " + path + " " + from + "+" + length + ": " + r.statusCode() + " "
                        + new String(r.body(), StandardCharsets.UTF_8));
            }
            return;
        }
        byte[] expected = new byte[length];
        try (var file = java.nio.channels.FileChannel.open(data.resolve(path.substring(1)))) {
            file.read(java.nio.ByteBuffer.wrap(expected), from);
        }
        if (!Arrays.equals(expected, r.body())) {
            violation("range " + path + " " + from + "+" + length + ": " + r.body().length + " bytes differ from the origin's");
        }
    }

    /** PUTs {@code content} as {@code path} through the door; once the origin holds it byte-exact, it is readable. */
    void upload(String path, byte[] content) throws IOException, InterruptedException {
        HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create(door + path)).timeout(TIMEOUT)
                .PUT(HttpRequest.BodyPublishers.ofByteArray(content)).build(), HttpResponse.BodyHandlers.ofString());
        count("upload", r.statusCode());
        if (r.statusCode() != 201 && r.statusCode() != 204) {
            if (!busyOrFull(r.statusCode())) {
                violation("upload " + path + ": " + r.statusCode() + " " + r.body());
            }
            return;
        }
        String sent = Tools.sha256(new java.io.ByteArrayInputStream(content));
        String stored = Tools.sha256(data.resolve(path.substring(1)));
        if (!sent.equals(stored)) {
            violation("upload " + path + ": the origin holds " + stored + ", not the " + sent + " sent");
            return;
        }
        digests.put(path, sent);
    }

    /**
     * Asks the pool for {@code path} on a raw connection, reads {@code keep} bytes of the answer and goes away: a
     * clean close, or a reset ({@code reset}) as a killed client's kernel sends.
     */
    void abandon(String path, int keep, boolean reset) throws IOException, InterruptedException {
        URI pool = redirect("abandon", path);
        if (pool == null) {
            return;
        }
        count("abandon", reset ? "reset" : "close");
        try (Socket s = new Socket(pool.getHost(), pool.getPort())) {
            s.setSoTimeout((int) TIMEOUT.toMillis());
            OutputStream out = s.getOutputStream();
            out.write(("GET " + pool.getRawPath() + "?" + pool.getRawQuery() + " HTTP/1.1\r\nHost: " + pool.getHost() + ":"
                    + pool.getPort() + "\r\nConnection: close\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
            out.flush();
            InputStream in = s.getInputStream();
            byte[] buf = new byte[8192];
            for (int n = 0; n < keep; ) {
                int r = in.read(buf, 0, Math.min(buf.length, keep - n));
                if (r < 0) {
                    break;
                }
                n += r;
            }
            if (reset) {
                s.setSoLinger(true, 0);
            }
        }
    }

    /** The pool's metrics text. */
    String metrics(URI pool) throws IOException, InterruptedException {
        return http.send(HttpRequest.newBuilder(pool.resolve("/.gridcache/metrics")).timeout(TIMEOUT).build(),
                HttpResponse.BodyHandlers.ofString()).body();
    }

    /** The pool a read of {@code path} is sent to (its base URL). */
    URI pool(String path) throws IOException, InterruptedException {
        URI at = redirect("pool", path);
        if (at == null) {
            throw new AssertionError("the door did not redirect " + path);
        }
        return at.resolve("/");
    }

    static byte[] bytes(long seed, int size) {
        byte[] b = new byte[size];
        new java.util.Random(seed).nextBytes(b);
        return b;
    }
}
