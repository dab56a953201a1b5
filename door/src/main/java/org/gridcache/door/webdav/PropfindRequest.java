package org.gridcache.door.webdav;

import jakarta.servlet.ReadListener;
import jakarta.servlet.ServletInputStream;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletRequestWrapper;
import java.io.BufferedReader;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import org.gridcache.common.SecureXml;
import org.gridcache.door.exchange.DoorException;
import org.gridcache.door.exchange.RequestBodies;
import org.w3c.dom.Element;
import org.xml.sax.SAXException;

/**
 * Checks a PROPFIND before Milton sees it, because Milton answers a malformed body with an allprop 207 and treats
 * Depth: infinity as 3 levels of origin listings. The (small) body is read once, checked, and replayed to Milton.
 * A missing Depth header is taken as 1: listing a whole origin tree is never what a client wants from a door.
 */
public final class PropfindRequest extends HttpServletRequestWrapper {
    private static final int MAX_BODY = 1 << 20;
    private final byte[] body;

    private PropfindRequest(HttpServletRequest request, byte[] body) {
        super(request);
        this.body = body;
    }

    /** The checked request, or a {@link DoorException} 400/403/413 naming what is wrong. */
    public static PropfindRequest check(HttpServletRequest request) throws IOException {
        String depth = request.getHeader("Depth");
        if (depth != null && depth.trim().equalsIgnoreCase("infinity")) {
            // RFC 4918 §9.1: a server may refuse infinite depth, with 403 (the propfind-finite-depth precondition)
            throw new DoorException(403, "PROPFIND with Depth: infinity is not supported (use 0 or 1)");
        }
        if (depth != null && !depth.equals("0") && !depth.equals("1")) {
            throw new DoorException(400, "invalid Depth for PROPFIND (0, 1 or infinity)");
        }
        byte[] body = RequestBodies.read(request, MAX_BODY, "PROPFIND");
        if (body.length > 0) {
            checkXml(body);
        }
        return new PropfindRequest(request, body);
    }

    public int depth() {
        return "0".equals(super.getHeader("Depth")) ? 0 : 1;
    }

    static void checkXml(byte[] body) {
        Element root;
        try {
            root = SecureXml.parse(body);
        } catch (SAXException | IOException e) {
            throw new DoorException(400, "malformed PROPFIND body");
        }
        if (!"DAV:".equals(root.getNamespaceURI()) || !"propfind".equals(root.getLocalName())) {
            throw new DoorException(400, "PROPFIND body is not a DAV:propfind element");
        }
    }

    @Override
    public String getHeader(String name) {
        if ("Depth".equalsIgnoreCase(name)) {
            return Integer.toString(depth());
        }
        return super.getHeader(name);
    }

    @Override
    public int getContentLength() {
        return body.length;
    }

    @Override
    public long getContentLengthLong() {
        return body.length;
    }

    @Override
    public ServletInputStream getInputStream() {
        ByteArrayInputStream in = new ByteArrayInputStream(body);
        return new ServletInputStream() {
            @Override
            public int read() {
                return in.read();
            }

            @Override
            public int read(byte[] b, int off, int len) {
                return in.read(b, off, len);
            }

            @Override
            public boolean isFinished() {
                return in.available() == 0;
            }

            @Override
            public boolean isReady() {
                return true;
            }

            @Override
            public void setReadListener(ReadListener listener) {
                throw new UnsupportedOperationException("blocking replay only");
            }
        };
    }

    @Override
    public BufferedReader getReader() {
        return new BufferedReader(new InputStreamReader(new ByteArrayInputStream(body), StandardCharsets.UTF_8));
    }
}
