package org.gridcache.pool;

import io.netty.buffer.ByteBuf;
import io.netty.channel.embedded.EmbeddedChannel;
import java.io.ByteArrayOutputStream;

/** What an {@link EmbeddedChannel} has written, as one byte array (its buffers released). */
public final class OutboundBytes {
    private OutboundBytes() {
    }

    public static byte[] drain(EmbeddedChannel channel) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (Object o; (o = channel.readOutbound()) != null; ) {
            ByteBuf b = (ByteBuf) o;
            byte[] bytes = new byte[b.readableBytes()];
            b.readBytes(bytes);
            out.writeBytes(bytes);
            b.release();
        }
        return out.toByteArray();
    }
}
