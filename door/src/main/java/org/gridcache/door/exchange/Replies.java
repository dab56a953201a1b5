package org.gridcache.door.exchange;

import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.nio.charset.StandardCharsets;

/** Short text/plain answers: every refusal is a status plus one line saying why. */
public final class Replies {
    private Replies() {
    }

    public static void text(HttpServletResponse response, int status, String line) throws IOException {
        byte[] body = (line + "\n").getBytes(StandardCharsets.UTF_8);
        response.setStatus(status);
        response.setContentType("text/plain; charset=utf-8");
        response.setContentLength(body.length);
        response.getOutputStream().write(body);
    }

    public static void failure(HttpServletResponse response, DoorException e) throws IOException {
        failure(response, e, false);
    }

    /** {@code closeConnection}: the reply says {@code Connection: close}. */
    public static void failure(HttpServletResponse response, DoorException e, boolean closeConnection) throws IOException {
        if (response.isCommitted()) {
            throw new IOException(e.reason()); // too late for a status: abort the connection
        }
        response.reset();
        e.headers().forEach(response::setHeader);
        if (closeConnection) {
            response.setHeader("Connection", "close");
        }
        if (e.status() == 405) {
            response.setHeader("Allow", DoorRequests.ALLOW);
        }
        text(response, e.status(), e.reason());
    }
}
