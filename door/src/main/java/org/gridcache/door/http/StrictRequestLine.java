package org.gridcache.door.http;

import java.nio.ByteBuffer;
import org.eclipse.jetty.http.HttpCompliance;
import org.eclipse.jetty.http.HttpException;
import org.eclipse.jetty.http.HttpParser;
import org.eclipse.jetty.util.BufferUtil;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Jetty's request parser, held to RFC 9112's request line: {@code method SP request-target SP HTTP/d.d}. Jetty is
 * lenient where a cache in front of the grid should not be: it reads {@code http/1.1} as HTTP/1.1, an empty target
 * as HTTP/0.9 (505), {@code HTTP/2.0} as a wish to upgrade (426), and answers an overlong method or a flood of empty
 * lines with 431. Each of those is the client's error: 400, or 501 for a method no server implements. A higher minor
 * version of HTTP/1 is read as HTTP/1.1, as RFC 9112 §2.3 asks.
 *
 * <p>The line is checked as its bytes arrive, before Jetty's parser sees its end, so Jetty never acts on a line this
 * refuses; the bytes are only read, never changed, except a minor version digit above 1 (rewritten to 1).
 */
final class StrictRequestLine extends HttpParser {
    private static final Logger LOG = LoggerFactory.getLogger(StrictRequestLine.class);
    /** The longest method of any registered HTTP method is 17 bytes (VERSION-CONTROL is 15); beyond this: 501. */
    static final int MAX_METHOD = 32;
    /** RFC 9112 §2.2 asks a server to ignore "at least one" empty line before a request; a few more are a courtesy. */
    static final int MAX_EMPTY_LINE_BYTES = 16;
    /** Kept of a line split over reads: the method and the version are what this checks, the target Jetty limits. */
    private static final int MAX_KEPT = 8 * 1024;

    private final StringBuilder line = new StringBuilder();
    private int leadingBytes;
    private boolean checked;

    private final HeaderDeadline deadline;

    /** {@code deadline} null: none (tests of the line alone). */
    StrictRequestLine(RequestHandler handler, int maxHeaderBytes, HttpCompliance compliance, HeaderDeadline deadline) {
        super(handler, maxHeaderBytes, compliance);
        this.deadline = deadline;
    }

    StrictRequestLine(RequestHandler handler, int maxHeaderBytes, HttpCompliance compliance) {
        this(handler, maxHeaderBytes, compliance, null);
    }

    @Override
    public boolean parseNext(ByteBuffer buffer) {
        if (deadline != null && deadline.passed()) {
            LOG.info("request head not complete within {} of its first byte: closing", deadline.timeout());
            BufferUtil.clear(buffer);
            badMessage(new HttpException.RuntimeException(408, "request headers not received within " + deadline.timeout()));
            return false;
        }
        boolean handled = parseLine(buffer);
        if (deadline != null) {
            deadline.reading(inHeaderState() && !isStart(), !inHeaderState()); // begun and not complete; complete
        }
        return handled;
    }

    private boolean parseLine(ByteBuffer buffer) {
        if (!checked) {
            Refusal refusal = scan(buffer);
            if (refusal != null) {
                LOG.info("request line refused with {}: {}", refusal.status, refusal.reason);
                BufferUtil.clear(buffer);
                badMessage(new HttpException.RuntimeException(refusal.status, refusal.reason));
                return false;
            }
        }
        return super.parseNext(buffer);
    }

    @Override
    public void reset() {
        super.reset();
        line.setLength(0);
        leadingBytes = 0;
        checked = false;
    }

    private record Refusal(int status, String reason) {
    }

    /** Reads (without consuming) what of the request line this buffer brings; a refusal once it is wrong. */
    private Refusal scan(ByteBuffer buffer) {
        for (int i = buffer.position(); i < buffer.limit(); i++) {
            byte b = buffer.get(i);
            if (line.isEmpty() && (b == '\r' || b == '\n')) {
                if (++leadingBytes > MAX_EMPTY_LINE_BYTES) {
                    return new Refusal(400, "too many empty lines before the request line");
                }
                continue;
            }
            if (b == '\n') {
                checked = true;
                return check(buffer, i);
            }
            if (line.length() < MAX_KEPT) {
                line.append((char) (b & 0xff));
            }
            if (line.indexOf(" ") < 0) {
                if (b != ' ' && !isTokenChar(b)) {
                    // a method is a token (RFC 9110 §9.1): TLS, SSH or binary bytes on the HTTP port are no request
                    return new Refusal(400, "malformed request line (the method is not a token)");
                }
                if (line.length() > MAX_METHOD) {
                    return new Refusal(501, "method not implemented (longer than " + MAX_METHOD + " bytes)");
                }
            }
        }
        return null;
    }

    /** The whole line is in {@link #line}; its LF at {@code lf} in the buffer. */
    private Refusal check(ByteBuffer buffer, int lf) {
        int end = line.length() > 0 && line.charAt(line.length() - 1) == '\r' ? line.length() - 1 : line.length();
        String text = line.substring(0, end);
        int first = text.indexOf(' ');
        int last = text.lastIndexOf(' ');
        if (first <= 0 || last == first) {
            return new Refusal(400, "malformed request line (method, target and HTTP version, separated by one space)");
        }
        if (last == first + 1) {
            return new Refusal(400, "empty request target");
        }
        String target = text.substring(first + 1, last);
        if (target.startsWith(" ") || target.endsWith(" ")) {
            return new Refusal(400, "malformed request line (one space between its parts)");
        }
        String version = text.substring(last + 1);
        if (version.length() != 8 || !version.startsWith("HTTP/") || !isDigit(version.charAt(5)) || version.charAt(6) != '.'
                || !isDigit(version.charAt(7))) {
            return new Refusal(400, "malformed HTTP version (HTTP/1.1 is spoken here)");
        }
        if (version.charAt(5) != '1') {
            return new Refusal(400, "HTTP/" + version.substring(5) + " is not spoken on an HTTP/1.1 connection");
        }
        if (version.charAt(7) > '1') {
            int minor = lf - (end < line.length() ? 2 : 1); // the minor digit, before the LF (and CR)
            if (minor < buffer.position()) {
                return new Refusal(400, "HTTP/" + version.substring(5) + " is not spoken here (HTTP/1.1 is)");
            }
            buffer.put(minor, (byte) '1');
        }
        return null;
    }

    /** RFC 9110 §5.6.2's tchar. */
    static boolean isTokenChar(byte b) {
        return b >= '0' && b <= '9' || b >= 'A' && b <= 'Z' || b >= 'a' && b <= 'z' || b > 0 && "!#$%&'*+-.^_`|~".indexOf(b) >= 0;
    }

    private static boolean isDigit(char c) {
        return c >= '0' && c <= '9';
    }
}
