package org.gridcache.gridftp;

import java.util.Map;
import org.globus.ftp.dc.AbstractDataChannel;
import org.globus.ftp.dc.DataChannelReader;

/**
 * jGlobus' table of data channel readers, by mode, type and direction ({@code "S-I-R"}: stream mode, image, the
 * receiving side). jGlobus instantiates the reader of a transfer from it and refuses a second registration, so a
 * reader of ours replaces the entry in the table itself, which a subclass of {@link AbstractDataChannel} may reach.
 */
abstract class DataChannelReaders extends AbstractDataChannel {
    static final String STREAM_IMAGE = "S-I-R";
    static final String MODE_E_IMAGE = "E-I-R";

    private DataChannelReaders() {
        super(null); // never instantiated: only to reach the protected static table
    }

    @SuppressWarnings("unchecked")
    static synchronized Class<?> installed(String id) {
        return ((Map<String, Class<?>>) dataHandlers).get(id);
    }

    /** Makes jGlobus read every transfer of {@code id} with {@code reader}; {@code what} names them in a refusal. */
    @SuppressWarnings("unchecked")
    static synchronized void replace(String id, String what, Class<? extends DataChannelReader> reader) {
        Map<String, Class<?>> table = (Map<String, Class<?>>) dataHandlers;
        if (!table.containsKey(id)) {
            throw new IllegalStateException("jGlobus has no " + what + " reader under " + id);
        }
        table.put(id, reader);
    }
}
