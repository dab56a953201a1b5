package org.gridcache.pool;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.gridcache.common.origin.FileOriginRoots;
import org.gridcache.common.origin.OriginEntry;
import org.gridcache.zk.MountTable;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * One admission for every method: a request head the pool cannot read is refused alike whether it reads (GET), writes
 * (PUT) or copies (COPY), before any ticket is looked at.
 */
class PoolAdmissionTest extends PoolTestSupport {
    private static final String HOST = "Host: x\r\n";

    @BeforeEach
    void setUp() throws Exception {
        Path files = Files.createDirectories(dir.resolve("files"));
        fileOriginRoots = FileOriginRoots.of(List.of(files));
        MountTable.put(zk, OriginEntry.of("up", "/up", files.toUri().toString()));
        startPool(1 << 24);
        await().atMost(WAIT).until(() -> pool.mounts().resolve("/up/x").isPresent());
    }

    @Test
    void aMalformedQueryIs400ForEveryMethod() throws Exception {
        refusedAlikeForEveryMethod("/up/q.bin?%zz", HOST, "400", "malformed query: ");
    }

    @Test
    void aPathThatCannotBeNormalisedIs400ForEveryMethod() throws Exception {
        refusedAlikeForEveryMethod("/up/../../etc/passwd", HOST, "400", "bad path: ");
    }

    /** PUT and COPY once skipped the head checks a read passes: a missing Host met the ticket check (403) instead. */
    @Test
    void anHttp11RequestWithoutHostIs400ForEveryMethod() throws Exception {
        refusedAlikeForEveryMethod("/up/q.bin", "", "400", "no Host header in an HTTP/1.1 request");
    }

    @Test
    void aTargetThatIsNotAPathIs400ForEveryMethod() throws Exception {
        refusedAlikeForEveryMethod("http://x/up/q.bin", HOST, "400", "malformed request target");
    }

    private void refusedAlikeForEveryMethod(String target, String host, String status, String reason) throws Exception {
        for (String head : List.of("GET " + target + " HTTP/1.1\r\n" + host + "\r\n",
                "PUT " + target + " HTTP/1.1\r\n" + host + "Content-Length: 0\r\n\r\n",
                "COPY " + target + " HTTP/1.1\r\n" + host + "Source: http://127.0.0.1:9/q.bin\r\nContent-Length: 0\r\n\r\n")) {
            String answer = exchange(head);
            assertTrue(answer.startsWith("HTTP/1.1 " + status), head + answer);
            assertTrue(answer.contains("\r\n\r\n" + reason), head + answer);
        }
    }

    /** Sends one request and reads the answer up to the connection's end (every refusal here closes or is asked to). */
    private String exchange(String head) throws Exception {
        try (Socket socket = new Socket("127.0.0.1", java.net.URI.create(pool.url()).getPort())) {
            socket.setSoTimeout((int) WAIT.toMillis());
            socket.getOutputStream().write(head.replace("\r\n\r\n", "\r\nConnection: close\r\n\r\n")
                    .getBytes(StandardCharsets.ISO_8859_1));
            socket.getOutputStream().flush();
            socket.shutdownOutput();
            return new String(socket.getInputStream().readAllBytes(), StandardCharsets.ISO_8859_1);
        }
    }
}
