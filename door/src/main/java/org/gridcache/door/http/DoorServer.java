package org.gridcache.door.http;

import org.gridcache.door.exchange.BodyDeadline;
import jakarta.servlet.DispatcherType;
import java.time.Duration;
import java.util.EnumSet;
import javax.net.ssl.SSLContext;
import org.eclipse.jetty.ee10.servlet.FilterHolder;
import org.eclipse.jetty.ee10.servlet.ServletContextHandler;
import org.eclipse.jetty.ee10.servlet.ServletHolder;
import org.eclipse.jetty.server.HttpConfiguration;
import org.eclipse.jetty.server.LowResourceMonitor;
import org.eclipse.jetty.server.NetworkConnectionLimit;
import org.eclipse.jetty.server.SecureRequestCustomizer;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.server.handler.QoSHandler;
import org.eclipse.jetty.util.ssl.SslContextFactory;
import org.eclipse.jetty.util.thread.QueuedThreadPool;
import org.gridcache.common.security.GridTls;
import org.gridcache.door.webdav.MiltonDavServlet;

/**
 * Jetty wiring: one connector (HTTPS with an optional client certificate, or plain HTTP), the read filter in front of
 * Milton's servlet, plain-text errors, and the bounds on what clients hold (connections, idle time; {@link #limits};
 * the PUTs at once, {@link #MAX_UPLOADS}).
 */
public final class DoorServer {
    private static final int MAX_THREADS = 256;
    /**
     * The PUTs handled at once (a proxied body holds its thread while it comes, at least {@link BodyDeadline}'s rate):
     * half the threads, so uploads never take the threads reads and listings need. Beyond it a PUT waits, holding no
     * thread, up to {@link #UPLOAD_WAIT}, then is 503.
     */
    private static final int MAX_UPLOADS = MAX_THREADS / 2;
    private static final Duration UPLOAD_WAIT = Duration.ofSeconds(60);
    private static final int DEFAULT_MAX_CONNECTIONS = 1024;
    private final Server server;
    private final ServerConnector connector;
    private final NetworkConnectionLimit connectionLimit;
    private final LowResourceMonitor lowResources;
    private final StrictHttpConnectionFactory http1;

    /** {@code ssl} null: plain HTTP. */
    public DoorServer(String id, String host, int port, SSLContext ssl, DoorAccounting accounting, DoorReadFilter filter,
               MiltonDavServlet milton) {
        QueuedThreadPool threads = new QueuedThreadPool(MAX_THREADS, 8);
        threads.setName("door-" + id);
        server = new Server(threads);
        HttpConfiguration http = new HttpConfiguration();
        http.setSendServerVersion(false); // Milton sends a Server header of its own; one is plenty, none is better
        http.setSendXPoweredBy(false);
        http1 = new StrictHttpConnectionFactory(http);
        if (ssl == null) {
            connector = new ServerConnector(server, http1);
        } else {
            // the client certificate chain becomes the request attribute jakarta.servlet.request.X509Certificate
            SecureRequestCustomizer secure = new SecureRequestCustomizer();
            secure.setSniHostCheck(false); // clients reach a door by many names (localhost, aliases, IPs)
            http.addCustomizer(secure);
            SslContextFactory.Server tls = new SslContextFactory.Server();
            tls.setSslContext(ssl);
            tls.setWantClientAuth(true); // a certificate is asked for, never required: anonymous access may be allowed
            tls.setEndpointIdentificationAlgorithm(null);
            tls.setExcludeProtocols("SSLv3", "TLSv1", "TLSv1.1");
            tls.setIncludeCipherSuites(GridTls.SERVER_CIPHER_SUITES); // forward secret and AEAD only, as the pools
            connector = new ServerConnector(server, tls, http1);
        }
        connector.setHost(host);
        connector.setPort(port);
        server.addConnector(connector);
        connectionLimit = new NetworkConnectionLimit(DEFAULT_MAX_CONNECTIONS, server);
        server.addBean(connectionLimit);
        lowResources = new LowResourceMonitor(server);
        lowResources.setMonitorThreads(true); // low when every thread is busy and requests queue up
        lowResources.setMonitoredConnectors(java.util.List.of(connector));
        server.addBean(lowResources);

        ServletContextHandler context = new ServletContextHandler("/");
        context.addFilter(new FilterHolder(accounting), "/*", EnumSet.of(DispatcherType.REQUEST));
        context.addFilter(new FilterHolder(filter), "/*", EnumSet.of(DispatcherType.REQUEST));
        context.addServlet(new ServletHolder("milton", milton), "/*");
        context.setErrorHandler(new PlainErrorHandler());
        QoSHandler uploads = new QoSHandler(context);
        uploads.includeMethod("PUT");
        uploads.setMaxRequestCount(MAX_UPLOADS);
        uploads.setMaxSuspend(UPLOAD_WAIT);
        server.setHandler(uploads);
        server.setErrorHandler(new PlainErrorHandler());
        server.setStopAtShutdown(false); // the owner closes the door
    }

    /**
     * How many client connections at once, how long an idle one stays, and how long while resources are short: at
     * {@code maxConnections} Jetty stops accepting (new connections wait in the kernel's backlog, and are refused by
     * the kernel once it is full) and cuts the idle timeout of the open ones to {@code lowResourcesIdle}; the same
     * shorter timeout applies while every thread is busy. A request's line and headers must arrive within
     * {@code headers} of its first byte ({@link HeaderDeadline}). Applied live.
     */
    public void limits(int maxConnections, Duration idle, Duration lowResourcesIdle, Duration headers) {
        http1.headerTimeout(headers);
        connectionLimit.setMaxNetworkConnectionCount(maxConnections);
        connectionLimit.setEndPointIdleTimeout(lowResourcesIdle.toMillis());
        connector.setIdleTimeout(idle.toMillis());
        lowResources.setLowResourcesIdleTimeout((int) Math.min(Integer.MAX_VALUE, lowResourcesIdle.toMillis()));
    }

    public void start() throws Exception {
        server.start();
    }

    public int port() {
        return connector.getLocalPort();
    }

    public int openConnections() {
        return connector.getConnectedEndPoints().size();
    }

    public void stop() throws Exception {
        server.stop();
    }
}
