package org.gridcache.pool.mover;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;

/**
 * The layout of a {@code multipart/byteranges} body (RFC 9110 §14.6) for several ranges of a file: a random boundary,
 * one part head per range (its Content-Type and Content-Range), the closing delimiter, and the exact length of it all,
 * which the response announces before the first byte.
 */
public final class MultipartBody {
    final List<ByteRange> ranges;
    private final String boundary;
    private final byte[][] heads;
    private final byte[] closing;
    private final long contentLength;
    private final long dataBytes;

    MultipartBody(List<ByteRange> ranges, long size) {
        this.ranges = List.copyOf(ranges);
        this.boundary = "gridcache-" + Long.toHexString(ThreadLocalRandom.current().nextLong() & Long.MAX_VALUE);
        this.heads = new byte[ranges.size()][];
        this.closing = ("\r\n--" + boundary + "--\r\n").getBytes(StandardCharsets.US_ASCII);
        long length = closing.length;
        long data = 0;
        for (int i = 0; i < heads.length; i++) {
            ByteRange r = ranges.get(i);
            heads[i] = ((i == 0 ? "" : "\r\n") + "--" + boundary + "\r\nContent-Type: application/octet-stream\r\nContent-Range: "
                    + r.contentRange(size) + "\r\n\r\n").getBytes(StandardCharsets.US_ASCII);
            length += heads[i].length + r.length();
            data += r.length();
        }
        this.contentLength = length;
        this.dataBytes = data;
    }

    public String contentType() {
        return "multipart/byteranges; boundary=" + boundary;
    }

    public long contentLength() {
        return contentLength;
    }

    /** The file's bytes in all parts (what the transfer record counts). */
    long dataBytes() {
        return dataBytes;
    }

    ByteBuf partHead(int i) {
        return Unpooled.wrappedBuffer(heads[i]);
    }

    ByteBuf closing() {
        return Unpooled.wrappedBuffer(closing);
    }
}
