package org.gridcache.door.liveness;

import java.io.EOFException;
import java.net.ConnectException;
import java.net.UnknownHostException;
import java.nio.channels.ClosedChannelException;
import javax.net.ssl.SSLException;
import org.eclipse.jetty.client.HttpClient;
import org.eclipse.jetty.client.transport.HttpClientTransportOverHTTP;
import org.eclipse.jetty.io.ClientConnector;
import org.eclipse.jetty.util.ssl.SslContextFactory;
import org.eclipse.jetty.util.thread.QueuedThreadPool;

/** The pings of {@link PoolLiveness}: the client that sends them, and what their failures say. */
public final class Pings {
    static final String AGENT = "gridcache-door-liveness";

    private Pings() {
    }

    /** A client for pings: one selector thread, a few workers, the pools' TLS when {@code tls} is not null. */
    public static HttpClient client(String doorId, SslContextFactory.Client tls) {
        ClientConnector connector = new ClientConnector();
        connector.setSelectors(1);
        if (tls != null) {
            connector.setSslContextFactory(tls);
        }
        QueuedThreadPool threads = new QueuedThreadPool(6, 2);
        threads.setName("door-" + doorId + "-liveness");
        threads.setDaemon(true);
        connector.setExecutor(threads);
        HttpClient http = new HttpClient(new HttpClientTransportOverHTTP(connector));
        http.setExecutor(threads);
        http.setFollowRedirects(false);
        http.setConnectTimeout(5_000);
        http.setIdleTimeout(60_000); // pings keep it busy; a close by either side is followed by a ping at once
        return http;
    }

    /** Nobody listens (or the name is unknown): no second chance needed. */
    static boolean refused(Throwable failure) {
        Throwable root = rootOf(failure);
        return failure instanceof ConnectException || root instanceof ConnectException || root instanceof UnknownHostException;
    }

    private static Throwable rootOf(Throwable failure) {
        Throwable root = failure;
        while (root.getCause() != null && root.getCause() != root) {
            root = root.getCause();
        }
        return root;
    }

    /** The failure of a ping in a few words: what an operator needs, nothing a secret could hide in. */
    static String describe(Throwable failure) {
        Throwable root = rootOf(failure);
        if (failure instanceof ConnectException || root instanceof ConnectException) {
            return "connection refused";
        }
        if (root instanceof UnknownHostException) {
            return "unknown host";
        }
        if (root instanceof EOFException || root instanceof ClosedChannelException) {
            return "connection closed";
        }
        if (root instanceof SSLException) {
            return "TLS failed (" + root.getClass().getSimpleName() + ")";
        }
        return root.getClass().getSimpleName();
    }
}
