package org.gridcache.door.write;

import jakarta.servlet.http.HttpServletRequest;
import java.util.Locale;
import org.eclipse.jetty.ee10.servlet.ServletContextRequest;
import org.gridcache.common.checksum.DigestRequest;
import org.gridcache.common.checksum.UploadDigest;
import org.gridcache.door.exchange.DoorException;

/** The headers of a write request, read as RFC 4918 and RFC 9530 say, or a 400. */
final class WriteHeaders {
    private WriteHeaders() {
    }

    static boolean hasFragment(HttpServletRequest request) {
        ServletContextRequest core = ServletContextRequest.getServletContextRequest(request);
        return core != null && core.getHttpURI() != null && core.getHttpURI().getFragment() != null;
    }

    static boolean overwrite(HttpServletRequest request) {
        String value = request.getHeader("Overwrite");
        if (value == null) {
            return true;
        }
        return switch (value.trim().toUpperCase(Locale.ROOT)) {
            case "T" -> true;
            case "F" -> false;
            default -> throw new DoorException(400, "bad Overwrite header (T or F)");
        };
    }

    /** COPY: Depth 0 copies a collection alone, infinity (the default) with its members; MOVE: infinity only. */
    static boolean depth(HttpServletRequest request, String method) {
        String value = request.getHeader("Depth");
        if (value == null || value.trim().equalsIgnoreCase("infinity")) {
            return true;
        }
        if (value.trim().equals("0") && method.equals("COPY")) {
            return false;
        }
        throw new DoorException(400, "bad Depth for " + method + ": " + value.lines().findFirst().orElse("")
                + (method.equals("COPY") ? " (0 or infinity)" : " (infinity)"));
    }

    static UploadDigest uploadDigest(HttpServletRequest request) {
        try {
            return UploadDigest.of(request.getHeader(DigestRequest.DIGEST), request.getHeader(UploadDigest.CONTENT_MD5));
        } catch (IllegalArgumentException e) {
            throw new DoorException(400, e.getMessage());
        }
    }
}
