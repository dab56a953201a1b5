package org.gridcache.door;

import jakarta.servlet.DispatcherType;
import java.util.EnumSet;
import org.eclipse.jetty.ee10.servlet.FilterHolder;
import org.eclipse.jetty.ee10.servlet.ServletContextHandler;
import org.eclipse.jetty.ee10.servlet.ServletHolder;
import org.eclipse.jetty.server.HttpConfiguration;
import org.eclipse.jetty.server.HttpConnectionFactory;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.util.thread.QueuedThreadPool;

/** Jetty wiring: one plain HTTP connector, the read filter in front of Milton's servlet, plain-text errors. */
final class DoorServer {
    private static final int MAX_THREADS = 256;
    private final Server server;
    private final ServerConnector connector;

    DoorServer(String id, String host, int port, DoorAccounting accounting, DoorReadFilter filter, MiltonDavServlet milton) {
        QueuedThreadPool threads = new QueuedThreadPool(MAX_THREADS, 8);
        threads.setName("door-" + id);
        server = new Server(threads);
        HttpConfiguration http = new HttpConfiguration();
        http.setSendServerVersion(false); // Milton sends a Server header of its own; one is plenty, none is better
        http.setSendXPoweredBy(false);
        connector = new ServerConnector(server, new HttpConnectionFactory(http));
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

    void start() throws Exception {
        server.start();
    }

    int port() {
        return connector.getLocalPort();
    }

    int openConnections() {
        return connector.getConnectedEndPoints().size();
    }

    void stop() throws Exception {
        server.stop();
    }
}
