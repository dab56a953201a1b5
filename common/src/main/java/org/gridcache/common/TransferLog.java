package org.gridcache.common;

import java.net.InetSocketAddress;
import java.net.SocketAddress;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Writes {@link TransferRecord}s, one JSON object a line, to the SLF4J logger {@code org.gridcache.transfers}. The
 * distribution's Logback configuration sends that logger to its own rotating file ({@code transfers.jsonl} beside
 * the process log) and nowhere else; where no such appender is configured the lines go wherever INFO goes.
 */
public final class TransferLog {
    public static final String LOGGER = "org.gridcache.transfers";
    private static final Logger LOG = LoggerFactory.getLogger(LOGGER);

    private TransferLog() {
    }

    public static void write(TransferRecord record) {
        if (LOG.isInfoEnabled()) {
            LOG.info(record.toJson());
        }
    }

    /** The IP address of a socket address, without port or host name. */
    public static String ip(SocketAddress address) {
        if (address instanceof InetSocketAddress inet && inet.getAddress() != null) {
            return inet.getAddress().getHostAddress();
        }
        return String.valueOf(address);
    }
}
