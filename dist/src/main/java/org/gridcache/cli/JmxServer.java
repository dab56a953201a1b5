package org.gridcache.cli;

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
import java.rmi.server.RMIServerSocketFactory;
import java.rmi.server.UnicastRemoteObject;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import javax.management.remote.JMXConnectorServer;
import javax.management.remote.JMXConnectorServerFactory;
import javax.management.remote.JMXServiceURL;
import javax.management.remote.rmi.RMIConnectorServer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The remote JMX connector of {@code --jmx-port}, started in code rather than with the JDK agent's
 * {@code com.sun.management.jmxremote.*} properties, because here it (1) listens on one address only (loopback by
 * default; the agent's RMI registry listens on every interface), (2) puts registry and connector on the one port, so
 * one firewall rule or SSH tunnel is enough, (3) is configured like every other option (command line or
 * {@code --config} file) and fails with a one-line reason when the port is taken or the password file is unsafe.
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

    /** A server socket factory bound to one address; a record, so that registry and connector share the port. */
    private record BoundSockets(InetAddress address) implements RMIServerSocketFactory {
        @Override
        public ServerSocket createServerSocket(int port) throws IOException {
            return new ServerSocket(port, 50, address);
        }
    }

    static JmxServer start(String bind, int port, Path passwordFile) throws Exception {
        if (port < 1 || port > 65535) {
            throw new IllegalArgumentException("--jmx-port must be 1 to 65535 (got " + port + ")");
        }
        Map<String, Object> env = new HashMap<>();
        if (passwordFile != null) {
            checkPasswordFile(passwordFile);
            env.put("jmx.remote.x.password.file", passwordFile.toString());
        }
        InetAddress address = InetAddress.getByName(bind);
        String host = address.isAnyLocalAddress() ? InetAddress.getLocalHost().getHostName()
                : address.getHostAddress().contains(":") ? "[" + address.getHostAddress() + "]" : address.getHostAddress();
        if (!address.isAnyLocalAddress() && System.getProperty("java.rmi.server.hostname") == null) {
            // the stub handed to clients names this host; it must be the address we listen on
            System.setProperty("java.rmi.server.hostname", address.getHostAddress());
        }
        BoundSockets sockets = new BoundSockets(address);
        env.put(RMIConnectorServer.RMI_SERVER_SOCKET_FACTORY_ATTRIBUTE, sockets);
        // clients may send credentials and nothing else: no deserialisation of arbitrary objects before login
        env.put("jmx.remote.rmi.server.credential.types", new String[] {String[].class.getName(), String.class.getName()});
        Registry registry;
        try {
            registry = LocateRegistry.createRegistry(port, null, sockets);
        } catch (java.rmi.RemoteException e) {
            throw new IllegalStateException("cannot serve JMX on " + bind + ":" + port + ": "
                    + (e.getCause() != null ? e.getCause().getMessage() : e.getMessage()));
        }
        JMXServiceURL url = new JMXServiceURL("service:jmx:rmi://" + host + ":" + port + "/jndi/rmi://" + host + ":" + port + "/jmxrmi");
        JMXConnectorServer connector = JMXConnectorServerFactory.newJMXConnectorServer(url, env,
                ManagementFactory.getPlatformMBeanServer());
        try {
            connector.start();
        } catch (IOException e) {
            unexport(registry);
            throw new IllegalStateException("cannot serve JMX on " + bind + ":" + port + ": " + e.getMessage());
        }
        String clientUrl = "service:jmx:rmi:///jndi/rmi://" + host + ":" + port + "/jmxrmi";
        LOG.info("JMX on {} ({})", clientUrl, passwordFile != null ? "password file " + passwordFile : "no authentication");
        return new JmxServer(connector, registry, clientUrl);
    }

    /** Like the JDK agent: a password file others can read is refused. */
    private static void checkPasswordFile(Path file) throws IOException {
        if (!Files.isReadable(file)) {
            throw new IllegalArgumentException("JMX password file " + file + " does not exist or cannot be read");
        }
        Set<PosixFilePermission> perms = Files.getPosixFilePermissions(file);
        if (perms.contains(PosixFilePermission.GROUP_READ) || perms.contains(PosixFilePermission.OTHERS_READ)) {
            throw new IllegalArgumentException("JMX password file " + file + " must be readable by its owner only (chmod 600 it)");
        }
    }

    /** What jconsole or jmxterm open (jmxterm also takes HOST:PORT). */
    String url() {
        return url;
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
