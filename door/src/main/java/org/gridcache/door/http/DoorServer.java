package org.gridcache.door.http;

import jakarta.servlet.DispatcherType;
import java.util.EnumSet;
import javax.net.ssl.SSLContext;
import org.eclipse.jetty.ee10.servlet.FilterHolder;
import org.eclipse.jetty.ee10.servlet.ServletContextHandler;
import org.eclipse.jetty.ee10.servlet.ServletHolder;
import org.eclipse.jetty.server.HttpConfiguration;
import org.eclipse.jetty.server.HttpConnectionFactory;
import org.eclipse.jetty.server.SecureRequestCustomizer;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.util.ssl.SslContextFactory;
import org.eclipse.jetty.util.thread.QueuedThreadPool;
import org.gridcache.door.webdav.MiltonDavServlet;

/** Jetty wiring: one connector (HTTPS with an optional client certificate, or plain HTTP), the read filter in front of Milton's servlet, plain-text errors. */
public final class DoorServer {
    private static final int MAX_THREADS = 256;
    private final Server server;
    private final ServerConnector connector;

    /** {@code ssl} null: plain HTTP. */
    public DoorServer(String id, String host, int port, SSLContext ssl, DoorAccounting accounting, DoorReadFilter filter,
               MiltonDavServlet milton) {
        QueuedThreadPool threads = new QueuedThreadPool(MAX_THREADS, 8);
        threads.setName("door-" + id);
        server = new Server(threads);
        HttpConfiguration http = new HttpConfiguration();
        http.setSendServerVersion(false); // Milton sends a Server header of its own; one is plenty, none is better
        http.setSendXPoweredBy(false);
        if (ssl == null) {
            connector = new ServerConnector(server, new HttpConnectionFactory(http));
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
            connector = new ServerConnector(server, tls, new HttpConnectionFactory(http));
        }
        connector.setHost(host);
        connector.setPort(port);
        server.addConnector(connector);

        ServletContextHandler context = new ServletContextHandler("/");
        context.addFilter(new FilterHolder(accounting), "/*", EnumSet.of(DispatcherType.REQUEST));
        context.addFilter(new FilterHolder(filter), "/*", EnumSet.of(DispatcherType.REQUEST));
        context.addServlet(new ServletHolder("milton", milton), "/*");
        context.setErrorHandler(new PlainErrorHandler());
        server.setHandler(context);
        server.setErrorHandler(new PlainErrorHandler());
        server.setStopAtShutdown(false); // the owner closes the door
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
