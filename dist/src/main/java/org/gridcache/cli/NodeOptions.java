package org.gridcache.cli;

import java.io.IOException;
import java.nio.file.Path;
import org.gridcache.common.TicketKey;
import picocli.CommandLine.Option;

/** What door and pool processes share: where to listen, how to be reached, and the ticket key. */
final class NodeOptions {
    @Option(names = "--bind", defaultValue = "127.0.0.1", description = "Address to listen on (default: ${DEFAULT-VALUE}).")
    String bind;

    @Option(names = "--public-url", paramLabel = "URL",
            description = "URL other hosts use to reach this node (default: http://<bind>:<port>).")
    String publicUrl;

    @Option(names = "--ticket-key", paramLabel = "FILE",
            description = "Shared secret that doors sign tickets with and pools verify them with; created (0600) when missing. "
                    + "Copy the same file to every door and pool host (default: <dist>/etc/ticket.key).")
    Path ticketKey;

    byte[] loadTicketKey() throws IOException {
        Path file = ticketKey != null ? ticketKey : Path.of(System.getProperty("gridcache.dist", "."), "etc", "ticket.key");
        return TicketKey.loadOrCreate(file);
    }
}
