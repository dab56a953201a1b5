package org.gridcache.pool.origin;

import io.netty.buffer.ByteBuf;
import java.io.IOException;
import java.net.URI;
import org.gridcache.common.ticket.Ticket;
import org.gridcache.pool.http.FetchException;

/**
 * An origin capability: reading just a range of a file (HTTP's ranged GET, GridFTP's ERET), the blocks of a partial
 * file ({@code pool.fetch.BlockFetches}), so a client seeking into a cold file waits for the bytes it asked for, not
 * for the whole file before them.
 */
public interface RangedReads {

    /**
     * Receives a ranged read: {@link #opened} once the origin sends the range (its answer, or its first bytes when
     * a refusal can come until then), then bytes.
     */
    interface Receiver {
        void opened();

        /** May block while the bytes go to disk. */
        void receive(ByteBuf data) throws IOException;

        /** Exactly once: null when every byte arrived. */
        void done(FetchException failure);
    }

    /** Reads {@code length} bytes from {@code offset}; the returned handle cuts the read. */
    AutoCloseable read(URI origin, Ticket ticket, long offset, long length, Receiver receiver);
}
