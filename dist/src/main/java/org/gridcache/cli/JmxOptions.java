package org.gridcache.cli;

import java.nio.file.Path;
import picocli.CommandLine.Option;

/**
 * Remote JMX for the long-running commands: off unless {@code --jmx-port} is given, loopback unless told otherwise;
 * off loopback only with a password file and an access file ({@link JmxServer}).
 */
final class JmxOptions {
    @Option(names = "--jmx-port", paramLabel = "PORT",
            description = "Serve JMX (jconsole, VisualVM, jmxterm) on this port; registry and connector share it. Off by default.")
    Integer port;

    @Option(names = "--jmx-bind", paramLabel = "ADDR", defaultValue = "127.0.0.1",
            description = "Address the JMX port listens on (default: ${DEFAULT-VALUE}: this host only). Any other address "
                    + "needs --jmx-password-file and --jmx-access-file.")
    String bind;

    @Option(names = "--jmx-password-file", paramLabel = "FILE",
            description = "JMX users and passwords, one 'user password' a line (the JDK's jmxremote.password format), "
                    + "mode 0600; without it JMX needs no login (loopback only).")
    Path passwordFile;

    @Option(names = "--jmx-access-file", paramLabel = "FILE",
            description = "JMX users' rights, one 'user readonly' or 'user readwrite [create CLASS…] [unregister]' a line "
                    + "(the JDK's jmxremote.access format); without it every user of the password file may do everything "
                    + "but create or remove MBeans.")
    Path accessFile;

    @Option(names = "--jmx-tls-cert", paramLabel = "FILE",
            description = "Serve JMX over TLS only, with this PEM certificate (the host certificate will do); clients "
                    + "trust it through their trust store (jconsole -J-Djavax.net.ssl.trustStore=…).")
    Path tlsCert;

    @Option(names = "--jmx-tls-key", paramLabel = "FILE", description = "The unencrypted PEM key of --jmx-tls-cert.")
    Path tlsKey;

    /** Starts the connector when asked for; else a no-op handle. */
    AutoCloseable start() throws Exception {
        if (port == null) {
            return () -> { };
        }
        JmxServer server = JmxServer.start(new JmxServer.Settings(bind, port, passwordFile, accessFile, tlsCert, tlsKey));
        System.out.println("gridcache JMX on " + server.url() + (passwordFile != null ? " (password required)" : "")
                + (tlsCert != null ? " (TLS)" : ""));
        return server;
    }
}
