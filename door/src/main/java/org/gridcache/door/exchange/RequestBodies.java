package org.gridcache.door.exchange;

import jakarta.servlet.http.HttpServletRequest;
import java.io.IOException;
import java.io.InputStream;

/**
 * The small bodies the door reads whole (PROPFIND, PROPPATCH, LOCK, delegation and macaroon requests): bounded, 413
 * beyond, whatever Content-Length said; and within {@link BodyDeadline}'s time, 408 beyond.
 */
public final class RequestBodies {
    private RequestBodies() {
    }

    /** The body of {@code request}, at most {@code max} bytes, else a 413 naming {@code method}. */
    public static byte[] read(HttpServletRequest request, int max, String method) throws IOException {
        if (request.getContentLengthLong() > max) {
            throw new DoorException(413, method + " body larger than " + max + " bytes");
        }
        try (InputStream in = new BodyDeadline(request.getInputStream())) {
            byte[] body = in.readNBytes(max + 1);
            if (body.length > max) {
                throw new DoorException(413, method + " body larger than " + max + " bytes");
            }
            return body;
        } catch (BodyDeadline.TooSlow e) {
            throw BodyDeadline.refusal(e, e.getMessage());
        }
    }
}
