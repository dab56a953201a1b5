package org.gridcache.door.http;

import java.time.Duration;
import org.eclipse.jetty.http.HttpCompliance;
import org.eclipse.jetty.http.HttpParser;
import org.eclipse.jetty.io.Connection;
import org.eclipse.jetty.io.EndPoint;
import org.eclipse.jetty.server.Connector;
import org.eclipse.jetty.server.HttpConfiguration;
import org.eclipse.jetty.server.HttpConnectionFactory;
import org.eclipse.jetty.server.internal.HttpConnection;

/**
 * HTTP/1.1 connections whose request lines are held to RFC 9112 ({@link StrictRequestLine}) and whose requests' heads
 * must arrive within a deadline ({@link HeaderDeadline}). Jetty 12 offers no setting for either; its connection class lives in an {@code internal} package but is public and made to be extended
 * ({@code newHttpParser} is its hook), so an upgrade of Jetty is checked by {@code StrictRequestLineTest}.
 */
final class StrictHttpConnectionFactory extends HttpConnectionFactory {
    private volatile Duration headerTimeout = Duration.ofSeconds(20);

    StrictHttpConnectionFactory(HttpConfiguration config) {
        super(config);
    }

    /** For connections made from now on. */
    void headerTimeout(Duration timeout) {
        headerTimeout = timeout;
    }

    @Override
    public Connection newConnection(Connector connector, EndPoint endPoint) {
        HeaderDeadline deadline = new HeaderDeadline(endPoint, headerTimeout, connector.getIdleTimeout());
        HttpConnection connection = new HttpConnection(getHttpConfiguration(), connector, endPoint) {
            @Override
            protected HttpParser newHttpParser(HttpCompliance compliance) {
                HttpParser lenient = super.newHttpParser(compliance); // carries the connection's request handler
                HttpParser strict = new StrictRequestLine((HttpParser.RequestHandler) lenient.getHandler(),
                        getHttpConfiguration().getRequestHeaderSize(), compliance, deadline);
                strict.setHeaderCacheSize(lenient.getHeaderCacheSize());
                strict.setHeaderCacheCaseSensitive(lenient.isHeaderCacheCaseSensitive());
                return strict;
            }
        };
        connection.setUseInputDirectByteBuffers(isUseInputDirectByteBuffers());
        connection.setUseOutputDirectByteBuffers(isUseOutputDirectByteBuffers());
        deadline.opened(connector.getScheduler());
        return configure(connection, connector, endPoint);
    }
}
