package org.gridcache.pool;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

/** HTTP/1.1 connection handling on raw sockets: keep-alive, pipelined requests answered in order, Connection: close. */
class PoolConnectionTest extends PoolTestSupport {

    @Test
    void pipelinedRequestsAreAnsweredInOrderOnOneConnection() throws Exception {
        startPool(1 << 20);
        byte[] data = randomBytes(70_000, 60);
        origin.serve("/p", data);
        String target = uri("/p", ticket("/p", origin.url("/p"), data.length)).getRawPath() + "?"
                + uri("/p", ticket("/p", origin.url("/p"), data.length)).getRawQuery();
        String request = "GET " + target + " HTTP/1.1\r\nHost: pool\r\n";
        try (Socket socket = new Socket("127.0.0.1", pool.port())) {
            OutputStream out = socket.getOutputStream();
            out.write((request + "\r\n" + request + "Range: bytes=-5\r\n\r\n" + request + "Connection: close\r\n\r\n")
                    .getBytes(StandardCharsets.US_ASCII));
            out.flush();
            DataInputStream in = new DataInputStream(socket.getInputStream());

            Response first = Response.read(in);
            assertEquals(200, first.status);
            assertArrayEquals(data, first.body);
            Response second = Response.read(in);
            assertEquals(206, second.status);
            assertArrayEquals(Arrays.copyOfRange(data, data.length - 5, data.length), second.body);
            Response third = Response.read(in);
            assertEquals(200, third.status);
            assertArrayEquals(data, third.body);
            assertEquals(-1, in.read(), "the pool closes after a Connection: close request");
        }
        assertEquals(1, origin.gets("/p"));
    }

    /** Just enough of an HTTP/1.1 response reader for Content-Length bodies. */
    private record Response(int status, String head, byte[] body) {
        static Response read(DataInputStream in) throws IOException {
            String head = readHead(in);
            int status = Integer.parseInt(head.substring(9, 12));
            int length = head.lines().filter(l -> l.toLowerCase().startsWith("content-length:"))
                    .map(l -> Integer.parseInt(l.substring(15).trim())).findFirst().orElseThrow();
            byte[] body = new byte[length];
            in.readFully(body);
            assertTrue(head.startsWith("HTTP/1.1 "), head);
            return new Response(status, head, body);
        }

        private static String readHead(InputStream in) throws IOException {
            ByteArrayOutputStream head = new ByteArrayOutputStream();
            int matched = 0;
            while (matched < 4) {
                int b = in.read();
                if (b < 0) {
                    throw new IOException("connection closed in a response head");
                }
                head.write(b);
                matched = (b == "\r\n\r\n".charAt(matched)) ? matched + 1 : (b == '\r' ? 1 : 0);
            }
            return head.toString(StandardCharsets.US_ASCII);
        }
    }
}
