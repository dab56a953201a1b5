package org.gridcache.door.http;

import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import org.gridcache.door.webdav.DelegationPage;

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

    /**
     * As {@link #failure(HttpServletResponse, DoorException, boolean)}; a browser (it accepts text/html) asked to
     * delegate gets a page explaining how.
     */
    static void failure(HttpServletRequest request, HttpServletResponse response, DoorException e, boolean closeConnection)
            throws IOException {
        String endpoint = e.headers().get(DoorException.DELEGATE_TO);
        String accept = request.getHeader("Accept");
        if (e.status() != 401 || endpoint == null || accept == null || !accept.contains("text/html") || response.isCommitted()) {
            failure(response, e, closeConnection);
            return;
        }
        response.reset();
        e.headers().forEach(response::setHeader);
        if (closeConnection) {
            response.setHeader("Connection", "close");
        }
        byte[] body = DelegationPage.render(e.reason(), endpoint).getBytes(StandardCharsets.UTF_8);
        response.setStatus(401);
        response.setContentType("text/html; charset=utf-8");
        response.setContentLength(body.length);
        response.getOutputStream().write(body);
    }

    /** {@code closeConnection}: the reply says {@code Connection: close}. */
    static void failure(HttpServletResponse response, DoorException e, boolean closeConnection) throws IOException {
        if (response.isCommitted()) {
            throw new IOException(e.reason()); // too late for a status: abort the connection
        }
        response.reset();
        e.headers().forEach(response::setHeader);
        if (closeConnection) {
            response.setHeader("Connection", "close");
        }
        if (e.status() == 405) {
            response.setHeader("Allow", DoorReadFilter.ALLOW);
        }
        text(response, e.status(), e.reason());
    }
}
