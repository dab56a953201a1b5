package org.gridcache.cli;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.gridcache.common.origin.FileOriginRoots;
import org.gridcache.common.ticket.TicketSigningKey;
import picocli.CommandLine.Option;

/** What door and pool processes share: where to listen, how to be reached, and the node's own ticket key. */
final class NodeOptions {
    @Option(names = "--bind", defaultValue = "127.0.0.1", description = "Address to listen on (default: ${DEFAULT-VALUE}).")
    String bind;

    @Option(names = "--public-url", paramLabel = "URL",
            description = "URL other hosts use to reach this node (default: http://<bind>:<port>).")
    String publicUrl;

    @Option(names = "--signing-key", paramLabel = "FILE",
            description = "This node's own Ed25519 ticket key (private JWK, mode 0600), created on first start: a door signs "
                    + "tickets with it, a pool its requests to peers. Only its public half leaves the host (in the node's "
                    + "ZooKeeper record); never copy it to another node (default: <dist>/etc/keys/door-<id>.jwk or "
                    + "<dist>/etc/keys/pool-<name>.jwk; packaged: /etc/gridcache/keys/).")
    Path signingKey;

    @Option(names = "--file-origin-root", paramLabel = "DIR", split = ",",
            description = "A directory file:// origins may lie in (repeatable, or comma-separated in the properties file): a "
                    + "file:// origin of the mount table whose real path is not at or below one of these is not served. "
                    + "Default: none (no file:// origin is served, whoever writes the mount table).")
    List<Path> fileOriginRoots = new ArrayList<>();

    /** The allowed directories, resolved to real paths now; a missing one stops the node. */
    FileOriginRoots fileOriginRoots() throws IOException {
        return FileOriginRoots.of(fileOriginRoots);
    }

    /**
     * The node's key, created when missing; {@code defaultName} names the file under {@code keys/} of the
     * configuration directory ({@code <dist>/etc}, or /etc/gridcache as packaged).
     */
    TicketSigningKey loadSigningKey(String defaultName) throws IOException {
        String etc = System.getProperty(GridcacheCli.CONF_DIR, Path.of(System.getProperty("gridcache.dist", "."), "etc").toString());
        Path file = signingKey != null ? signingKey : Path.of(etc, "keys", defaultName + ".jwk");
        return TicketSigningKey.loadOrCreate(file);
    }
}
