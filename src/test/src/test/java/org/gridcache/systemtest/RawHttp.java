package org.gridcache.systemtest;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

/**
 * HTTP/1.1 over a raw socket, for requests no client library would send: the bytes go out as given (while the answer is
 * read, as a server may answer and stop reading first), the sending side is shut, and every response that comes back
 * before the server closes, or before the read times out, is parsed strictly.
 */
final class RawHttp {
    private RawHttp() {
    }

    /** One parsed response; {@code body} as ISO-8859-1 text. */
    record Response(int status, String statusLine, Map<String, String> headers, String body) {
        String header(String name) {
            return headers.get(name.toLowerCase(Locale.ROOT));
        }
    }

    /**
     * What came back: the final (non-1xx) responses in order; {@code hung} when the server neither closed nor finished
     * within the timeout; {@code malformed} says what could not be parsed (null when all could).
     */
    record Exchange(List<Response> responses, boolean hung, String malformed) {
        Integer firstStatus() {
            return responses.isEmpty() ? null : responses.get(0).status();
        }
    }

    static Exchange exchange(String host, int port, byte[] request, Duration timeout) throws IOException {
        try (Socket socket = new Socket(host, port)) {
            socket.setSoTimeout((int) timeout.toMillis());
            CompletableFuture<Void> sent = CompletableFuture.runAsync(() -> {
                try {
                    OutputStream out = socket.getOutputStream();
                    out.write(request);
                    out.flush();
                    socket.shutdownOutput();
                } catch (IOException e) {
                    // the server answered and closed before taking everything: its answer is what counts
                }
            });
            ByteArrayOutputStream got = new ByteArrayOutputStream();
            boolean hung = false;
            InputStream in = socket.getInputStream();
            byte[] buffer = new byte[64 * 1024];
            long deadline = System.nanoTime() + timeout.toNanos();
            try {
                for (int n; (n = in.read(buffer)) >= 0; ) {
                    got.write(buffer, 0, n);
                    if (System.nanoTime() > deadline) {
                        hung = true; // still sending after the whole timeout: no answer to a bounded request is that long
                        break;
                    }
                }
            } catch (SocketTimeoutException e) {
                hung = true;
            } catch (IOException e) {
                // reset after the answer: what was read is judged
            }
            sent.cancel(true);
            boolean head = new String(request, 0, Math.min(5, request.length), StandardCharsets.ISO_8859_1).equals("HEAD ");
            Exchange parsed = parse(got.toByteArray(), head);
            return new Exchange(parsed.responses(), hung, parsed.malformed());
        }
    }

    /** Splits a byte stream into responses (Content-Length, chunked, or to the end); HEAD responses have no body. */
    static Exchange parse(byte[] data, boolean head) {
        List<Response> responses = new ArrayList<>();
        String text = new String(data, StandardCharsets.ISO_8859_1);
        int at = 0;
        while (at < text.length()) {
            int end = text.indexOf("\r\n\r\n", at);
            if (!text.startsWith("HTTP/1.", at) || end < 0) {
                return new Exchange(responses, false, "not an HTTP/1.x response at byte " + at + ": "
                        + text.substring(at, Math.min(text.length(), at + 60)));
            }
            String[] lines = text.substring(at, end).split("\r\n");
            if (!lines[0].matches("HTTP/1\\.[01] [1-5][0-9][0-9]( .*)?")) {
                return new Exchange(responses, false, "malformed status line: " + lines[0]);
            }
            int status = Integer.parseInt(lines[0].substring(9, 12));
            Map<String, String> headers = new LinkedHashMap<>();
            for (int i = 1; i < lines.length; i++) {
                int colon = lines[i].indexOf(':');
                if (colon <= 0) {
                    return new Exchange(responses, false, "malformed header line: " + lines[i]);
                }
                headers.put(lines[i].substring(0, colon).trim().toLowerCase(Locale.ROOT), lines[i].substring(colon + 1).trim());
            }
            at = end + 4;
            String body;
            if (head || status < 200 || status == 204 || status == 304) {
                body = "";
            } else if (headers.containsKey("content-length")) {
                int length = Integer.parseInt(headers.get("content-length"));
                body = text.substring(at, Math.min(text.length(), at + length));
                at = Math.min(text.length(), at + length);
            } else if ("chunked".equalsIgnoreCase(headers.get("transfer-encoding"))) {
                StringBuilder chunks = new StringBuilder();
                while (true) {
                    int lineEnd = text.indexOf("\r\n", at);
                    if (lineEnd < 0) {
                        return new Exchange(responses, false, "truncated chunked body");
                    }
                    int size = Integer.parseInt(text.substring(at, lineEnd).split(";")[0].trim(), 16);
                    chunks.append(text, lineEnd + 2, Math.min(text.length(), lineEnd + 2 + size));
                    at = Math.min(text.length(), lineEnd + 2 + size + 2);
                    if (size == 0) {
                        break;
                    }
                }
                body = chunks.toString();
            } else {
                body = text.substring(at);
                at = text.length();
            }
            if (status >= 200) {
                responses.add(new Response(status, lines[0], headers, body));
            }
        }
        return new Exchange(responses, false, null);
    }
}
