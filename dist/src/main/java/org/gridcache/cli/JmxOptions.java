package org.gridcache.cli;

import java.nio.file.Path;
import picocli.CommandLine.Option;

/** Remote JMX for the long-running commands: off unless {@code --jmx-port} is given, loopback unless told otherwise. */
final class JmxOptions {
    @Option(names = "--jmx-port", paramLabel = "PORT",
            description = "Serve JMX (jconsole, VisualVM, jmxterm) on this port; registry and connector share it. Off by default.")
    Integer port;

    @Option(names = "--jmx-bind", paramLabel = "ADDR", defaultValue = "127.0.0.1",
            description = "Address the JMX port listens on (default: ${DEFAULT-VALUE}: this host only).")
    String bind;

    @Option(names = "--jmx-password-file", paramLabel = "FILE",
            description = "JMX users and passwords, one 'user password' a line, mode 0600; without it JMX needs no login, "
                    + "so keep it on loopback. For TLS use the JDK agent instead (README, Operations).")
    Path passwordFile;

    /** Starts the connector when asked for; else a no-op handle. */
    AutoCloseable start() throws Exception {
        if (port == null) {
            return () -> { };
        }
        JmxServer server = JmxServer.start(bind, port, passwordFile);
        System.out.println("gridcache JMX on " + server.url() + (passwordFile != null ? " (password required)" : ""));
        return server;
    }
}
