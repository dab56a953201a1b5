package org.gridcache.door.http;

import jakarta.servlet.http.HttpServletRequest;
import java.io.IOException;
import java.io.InputStream;

/** The small XML bodies the door reads whole (PROPFIND, PROPPATCH): bounded, 413 beyond, whatever Content-Length said. */
public final class RequestBodies {
    private RequestBodies() {
    }

    /** The body of {@code request}, at most {@code max} bytes, else a 413 naming {@code method}. */
    public static byte[] read(HttpServletRequest request, int max, String method) throws IOException {
        if (request.getContentLengthLong() > max) {
            throw new DoorException(413, method + " body larger than " + max + " bytes");
        }
        try (InputStream in = request.getInputStream()) {
            byte[] body = in.readNBytes(max + 1);
            if (body.length > max) {
                throw new DoorException(413, method + " body larger than " + max + " bytes");
            }
            return body;
        }
    }
}
