package org.gridcache.cli;

import eu.emi.security.authn.x509.X509Credential;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.rmi.NoSuchObjectException;
import java.rmi.registry.LocateRegistry;
import java.rmi.registry.Registry;
import java.rmi.server.RMIClientSocketFactory;
import java.rmi.server.RMIServerSocketFactory;
import java.rmi.server.UnicastRemoteObject;
import java.security.GeneralSecurityException;
import java.security.SecureRandom;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import javax.management.remote.JMXConnectorServer;
import javax.management.remote.JMXServiceURL;
import javax.management.remote.rmi.RMIConnectorServer;
import javax.management.remote.rmi.RMIJRMPServerImpl;
import javax.net.ssl.KeyManager;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLServerSocket;
import javax.rmi.ssl.SslRMIClientSocketFactory;
import org.gridcache.common.security.GridCredentials;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The remote JMX connector of {@code --jmx-port}, started in code rather than with the JDK agent's
 * {@code com.sun.management.jmxremote.*} properties, because here it (1) listens on one address only (loopback by
 * default; the agent's RMI registry listens on every interface), (2) puts registry and connector on the one port, so
 * one firewall rule or SSH tunnel is enough, (3) is configured like every other option (command line or
 * {@code --config} file) and fails with a one-line reason when the port is taken or a file is unsafe.
 *
 * <p>Who may do what (issue 11): off loopback it starts only with a password file and an access file (the JDK's
 * {@code jmxremote.password} and {@code jmxremote.access} formats: {@code readonly} users read attributes,
 * {@code readwrite} users also invoke operations, and create MBeans only with a {@code create} clause). Whatever the
 * access file says, {@link RemoteJmxGuard} keeps heap dumps, agent loading and VM flags off the remote connector
 * (a heap dump holds the ticket key and delegated keys), and without an access file it also refuses creating and
 * unregistering MBeans. With {@code tls} the registry and the connector speak TLS only
 * ({@link SslRMIClientSocketFactory}: clients trust the certificate through their default trust store).
 */
final class JmxServer implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(JmxServer.class);
    private final JMXConnectorServer connector;
    private final Registry registry;
    private final String url;

    private JmxServer(JMXConnectorServer connector, Registry registry, String url) {
        this.connector = connector;
        this.registry = registry;
        this.url = url;
    }

    /** What the connector is given: who may log in, with which rights, and the TLS certificate (all optional). */
    record Settings(String bind, int port, Path passwordFile, Path accessFile, Path tlsCert, Path tlsKey) {
        boolean tls() {
            return tlsCert != null;
        }
    }

    /**
     * A server socket factory bound to one address, with TLS when {@code ssl} is set; a record, so that registry
     * and connector, given equal factories, share the port.
     */
    private record BoundSockets(InetAddress address, SSLContext ssl) implements RMIServerSocketFactory {
        @Override
        public ServerSocket createServerSocket(int port) throws IOException {
            if (ssl == null) {
                return new ServerSocket(port, 50, address);
            }
            SSLServerSocket socket = (SSLServerSocket) ssl.getServerSocketFactory().createServerSocket(port, 50, address);
            socket.setEnabledProtocols(new String[] {"TLSv1.3", "TLSv1.2"});
            return socket;
        }
    }

    static JmxServer start(Settings s) throws Exception {
        if (s.port() < 1 || s.port() > 65535) {
            throw new IllegalArgumentException("--jmx-port must be 1 to 65535 (got " + s.port() + ")");
        }
        if ((s.tlsCert() == null) != (s.tlsKey() == null)) {
            throw new IllegalArgumentException("--jmx-tls-cert and --jmx-tls-key go together");
        }
        if (s.accessFile() != null && s.passwordFile() == null) {
            throw new IllegalArgumentException("--jmx-access-file names users of a password file: give --jmx-password-file too");
        }
        InetAddress address = InetAddress.getByName(s.bind());
        if (!address.isLoopbackAddress() && (s.passwordFile() == null || s.accessFile() == null)) {
            throw new IllegalArgumentException("JMX on " + s.bind() + " (not loopback) needs --jmx-password-file and "
                    + "--jmx-access-file: whoever reaches the port could otherwise read and change everything");
        }
        Map<String, Object> env = new HashMap<>();
        if (s.passwordFile() != null) {
            checkOwnerOnly(s.passwordFile(), "password");
            env.put("jmx.remote.x.password.file", s.passwordFile().toString());
        }
        if (s.accessFile() != null) {
            checkNotWritableByOthers(s.accessFile());
            // RMIConnectorServer puts the JDK's file access controller in front: readonly / readwrite [create …] [unregister]
            env.put("jmx.remote.x.access.file", s.accessFile().toString());
        }
        String host = address.isAnyLocalAddress() ? InetAddress.getLocalHost().getHostName()
                : address.getHostAddress().contains(":") ? "[" + address.getHostAddress() + "]" : address.getHostAddress();
        if (!address.isAnyLocalAddress() && System.getProperty("java.rmi.server.hostname") == null) {
            // the stub handed to clients names this host; it must be the address we listen on
            System.setProperty("java.rmi.server.hostname", address.getHostAddress());
        }
        BoundSockets sockets = new BoundSockets(address, s.tls() ? serverTls(s.tlsCert(), s.tlsKey()) : null);
        RMIClientSocketFactory clientSockets = s.tls() ? new SslRMIClientSocketFactory() : null;
        env.put(RMIConnectorServer.RMI_SERVER_SOCKET_FACTORY_ATTRIBUTE, sockets);
        if (clientSockets != null) {
            env.put(RMIConnectorServer.RMI_CLIENT_SOCKET_FACTORY_ATTRIBUTE, clientSockets);
        }
        // clients may send credentials and nothing else: no deserialisation of arbitrary objects before login
        env.put("jmx.remote.rmi.server.credential.types", new String[] {String[].class.getName(), String.class.getName()});
        Registry registry;
        try {
            registry = LocateRegistry.createRegistry(s.port(), clientSockets, sockets);
        } catch (java.rmi.RemoteException e) {
            throw new IllegalStateException("cannot serve JMX on " + s.bind() + ":" + s.port() + ": "
                    + (e.getCause() != null ? e.getCause().getMessage() : e.getMessage()));
        }
        // the connector's stub goes into the registry directly, not through JNDI, which would open a socket of its
        // own to the registry (and, over TLS, trust only the JVM's default trust store)
        RMIJRMPServerImpl rmi = new RMIJRMPServerImpl(s.port(), clientSockets, sockets, env);
        JMXConnectorServer connector = new RMIConnectorServer(new JMXServiceURL("rmi", host, s.port()), env, rmi,
                ManagementFactory.getPlatformMBeanServer());
        connector.setMBeanServerForwarder(RemoteJmxGuard.newForwarder(s.accessFile() != null));
        try {
            connector.start();
            registry.bind("jmxrmi", rmi.toStub());
        } catch (IOException | java.rmi.AlreadyBoundException e) {
            stopQuietly(connector);
            unexport(registry);
            throw new IllegalStateException("cannot serve JMX on " + s.bind() + ":" + s.port() + ": " + e.getMessage());
        }
        String clientUrl = "service:jmx:rmi:///jndi/rmi://" + host + ":" + s.port() + "/jmxrmi";
        LOG.info("JMX on {} ({}{}{})", clientUrl, s.passwordFile() != null ? "password file " + s.passwordFile() : "no authentication",
                s.accessFile() != null ? ", access file " + s.accessFile() : "", s.tls() ? ", TLS" : "");
        if (!address.isLoopbackAddress() && !s.tls()) {
            LOG.warn("JMX on {} without TLS: passwords cross the network in the clear (give --jmx-tls-cert and --jmx-tls-key)", s.bind());
        }
        return new JmxServer(connector, registry, clientUrl);
    }

    /** The key manager of a PEM certificate and key (the host certificate will do); no client certificates asked. */
    private static SSLContext serverTls(Path cert, Path key) throws IOException {
        X509Credential credential = GridCredentials.load(cert, key);
        try {
            SSLContext ssl = SSLContext.getInstance("TLS");
            ssl.init(new KeyManager[] {credential.getKeyManager()}, null, new SecureRandom());
            return ssl;
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("cannot set up JMX TLS: " + e.getMessage(), e);
        }
    }

    /** Like the JDK agent: a password file that anyone but its owner may read or write is refused. */
    private static void checkOwnerOnly(Path file, String what) throws IOException {
        if (!Files.isReadable(file)) {
            throw new IllegalArgumentException("JMX " + what + " file " + file + " does not exist or cannot be read");
        }
        Set<PosixFilePermission> others = EnumSet.of(PosixFilePermission.GROUP_READ, PosixFilePermission.GROUP_WRITE,
                PosixFilePermission.OTHERS_READ, PosixFilePermission.OTHERS_WRITE);
        others.retainAll(Files.getPosixFilePermissions(file));
        if (!others.isEmpty()) {
            throw new IllegalArgumentException("JMX " + what + " file " + file + " must be readable by its owner only (chmod 600 it)");
        }
    }

    /** Whoever may write the access file may grant themselves every right. */
    private static void checkNotWritableByOthers(Path file) throws IOException {
        if (!Files.isReadable(file)) {
            throw new IllegalArgumentException("JMX access file " + file + " does not exist or cannot be read");
        }
        Set<PosixFilePermission> perms = Files.getPosixFilePermissions(file);
        if (perms.contains(PosixFilePermission.GROUP_WRITE) || perms.contains(PosixFilePermission.OTHERS_WRITE)) {
            throw new IllegalArgumentException("JMX access file " + file + " must be writable by its owner only (chmod 644 or 600 it)");
        }
    }

    /** What jconsole or jmxterm open (jmxterm also takes HOST:PORT). */
    String url() {
        return url;
    }

    private static void stopQuietly(JMXConnectorServer connector) {
        try {
            connector.stop();
        } catch (IOException e) {
            // not started, or stopped already
        }
    }

    private static void unexport(Registry registry) {
        try {
            UnicastRemoteObject.unexportObject(registry, true);
        } catch (NoSuchObjectException e) {
            // gone already
        }
    }

    @Override
    public void close() {
        try {
            connector.stop();
        } catch (IOException e) {
            LOG.warn("stopping JMX: {}", e.toString());
        }
        unexport(registry);
    }
}
