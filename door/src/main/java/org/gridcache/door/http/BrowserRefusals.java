package org.gridcache.door.http;

import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import org.gridcache.door.exchange.DoorException;
import org.gridcache.door.exchange.Replies;
import org.gridcache.door.webdav.DelegationPage;
import org.gridcache.door.webdav.SignInPage;

/**
 * A refusal as its client reads it. A browser is a client whose {@code Accept} names {@code text/html} (curl, davix,
 * gfal2, cadaver, davfs2 and rclone never do): its 401 carries a page saying how to get in, one asking for a
 * delegation or one listing the ways to sign in when it came without a credential. Status and headers
 * ({@code WWW-Authenticate}, {@code X-Delegate-To}) are the same for every client; every other refusal is
 * {@link Replies#failure}'s one line.
 */
final class BrowserRefusals {
    private BrowserRefusals() {
    }

    /** {@code anonymous}: the request came with no credential at all (not with one that was refused). */
    static void send(HttpServletRequest request, HttpServletResponse response, DoorException e, boolean anonymous,
                     boolean closeConnection) throws IOException {
        String page = e.status() == 401 && isBrowser(request) && !response.isCommitted() ? page(request, e, anonymous) : null;
        if (page == null) {
            Replies.failure(response, e, closeConnection);
            return;
        }
        response.reset();
        e.headers().forEach(response::setHeader);
        if (closeConnection) {
            response.setHeader("Connection", "close");
        }
        byte[] body = page.getBytes(StandardCharsets.UTF_8);
        response.setStatus(401);
        response.setContentType("text/html; charset=utf-8");
        response.setContentLength(body.length);
        response.getOutputStream().write(body);
    }

    static boolean isBrowser(HttpServletRequest request) {
        String accept = request.getHeader("Accept");
        return accept != null && accept.contains("text/html");
    }

    private static String page(HttpServletRequest request, DoorException e, boolean anonymous) {
        String endpoint = e.headers().get(DoorException.DELEGATE_TO);
        if (endpoint != null) {
            return DelegationPage.render(e.reason(), endpoint);
        }
        if (!anonymous) {
            return null;
        }
        String url = request.getRequestURL().toString(); // without the query: a ticket or macaroon never shows
        String door = url.substring(0, url.length() - request.getRequestURI().length());
        return SignInPage.render(e.reason(), url, door, request.isSecure());
    }
}
