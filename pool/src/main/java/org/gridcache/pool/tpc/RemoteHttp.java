package org.gridcache.pool.tpc;

import eu.emi.security.authn.x509.X509Credential;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;
import javax.net.ssl.SSLContext;
import org.eclipse.jetty.client.HttpClient;
import org.eclipse.jetty.client.transport.HttpClientTransportOverHTTP;
import org.eclipse.jetty.http.HttpCookieStore;
import org.eclipse.jetty.http.HttpField;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.io.ArrayByteBufferPool;
import org.eclipse.jetty.io.ByteBufferPool;
import org.eclipse.jetty.io.ClientConnector;
import org.eclipse.jetty.util.Promise;
import org.eclipse.jetty.util.SocketAddressResolver;
import org.eclipse.jetty.util.ssl.SslContextFactory;
import org.eclipse.jetty.util.thread.QueuedThreadPool;
import org.eclipse.jetty.util.thread.ScheduledExecutorScheduler;
import org.gridcache.common.net.AllowedHosts;
import org.gridcache.common.security.GridTls;

/**
 * How a pool reaches a third-party copy's remote side: Jetty's HTTP/1.1 client, one per copy ({@link #open}),
 * stopped when the copy ends, so that a connection never carries two copies (nor two users' credentials: a remote
 * such as XRootD keeps the identity a connection first authenticated). Every connection, the first and each
 * redirect's, goes to an address this class resolved and checked itself ({@link Checked}): an address in an
 * internal range (loopback, link-local, private, unique-local, multicast, metadata) only when
 * {@code tpc.allowed-hosts} lists it, so a name cannot resolve to another address between the check and the connect.
 * TLS checks the remote's chain against the CA directory when the pool has one (else the JDK's trust store) and its
 * host name; the user's proxy is presented for {@code Credential: gridsite}, nothing otherwise.
 */
final class RemoteHttp implements AutoCloseable {
    static final Duration CONNECT_TIMEOUT = Duration.ofSeconds(30);
    /** How long a remote may send nothing on a connection the copy uses (a header's wait included). */
    static final Duration IDLE_TIMEOUT = Duration.ofMinutes(10);
    private final Supplier<SSLContext> anonymousTls;
    private final java.util.function.Function<X509Credential, SSLContext> userTls;
    private final Supplier<AllowedHosts> allowed;
    private final QueuedThreadPool threads;
    private final ScheduledExecutorScheduler scheduler;
    private final ByteBufferPool buffers = new ArrayByteBufferPool();

    /**
     * {@code trust} null: a pool without grid security (https remotes checked against the JDK's trust store);
     * {@code allowed}: {@code tpc.allowed-hosts} now.
     */
    RemoteHttp(org.gridcache.common.security.GridTrust trust, Supplier<AllowedHosts> allowed, String poolName) {
        this.allowed = allowed;
        this.userTls = credential -> GridTls.client(credential, trust);
        this.anonymousTls = trust == null ? RemoteHttp::jdkDefault : () -> GridTls.client(null, trust);
        this.threads = new QueuedThreadPool(1024, 2); // each running copy holds a selector thread: as many as copies run
        threads.setName(poolName + "-tpc-http");
        threads.setDaemon(true);
        this.scheduler = new ScheduledExecutorScheduler(poolName + "-tpc-http-timer", true);
        try {
            threads.start();
            scheduler.start();
        } catch (Exception e) {
            throw new IllegalStateException("cannot start the third-party copy's HTTP threads", e);
        }
    }

    /** The connections of one copy, presenting {@code credential} (null: nothing); close it when the copy ends. */
    RemoteSession open(X509Credential credential) throws CopyFailure {
        SslContextFactory.Client tls = new SslContextFactory.Client();
        tls.setSslContext(credential == null ? anonymousTls.get() : userTls.apply(credential));
        ClientConnector connector = new ClientConnector();
        connector.setSslContextFactory(tls);
        connector.setExecutor(threads);
        connector.setScheduler(scheduler);
        connector.setByteBufferPool(buffers);
        HttpClient client = new HttpClient(new HttpClientTransportOverHTTP(connector));
        client.setExecutor(threads);
        client.setScheduler(scheduler);
        client.setByteBufferPool(buffers);
        client.setSocketAddressResolver(new Checked(allowed.get()));
        client.setFollowRedirects(false); // RemoteSession follows them, each hop checked
        client.setConnectTimeout(CONNECT_TIMEOUT.toMillis());
        client.setIdleTimeout(IDLE_TIMEOUT.toMillis());
        client.setHttpCookieStore(new HttpCookieStore.Empty()); // nothing carried from one request to the next
        client.getContentDecoderFactories().clear(); // the bytes as the remote stores them: no gzip asked nor undone
        client.setUserAgentField(new HttpField(HttpHeader.USER_AGENT, "gridcache-pool"));
        try {
            client.start();
        } catch (Exception e) {
            throw new CopyFailure("cannot start the HTTP client: " + CopyService.oneLine(e));
        }
        return new RemoteSession(client);
    }

    private static SSLContext jdkDefault() {
        try {
            return SSLContext.getDefault();
        } catch (java.security.NoSuchAlgorithmException e) {
            throw new IllegalStateException("no TLS in this JDK", e);
        }
    }

    @Override
    public void close() {
        try {
            scheduler.stop();
            threads.stop();
        } catch (Exception e) {
            // stopping: nothing to keep
        }
    }

    /** A remote's address refused by {@code tpc.allowed-hosts}: its message is the copy's one-line failure. */
    static final class RefusedAddress extends UnknownHostException {
        private static final long serialVersionUID = 1L;

        RefusedAddress(String reason) {
            super(reason);
        }
    }

    /**
     * Resolves a remote's host once, keeps the addresses {@code tpc.allowed-hosts} allows, and hands only those to
     * the connector; none left: the connection fails with the reason. Resolved on the client's threads (a lookup
     * blocks), never on the connector's selector.
     */
    private final class Checked implements SocketAddressResolver {
        private final AllowedHosts allowedHosts;

        Checked(AllowedHosts allowedHosts) {
            this.allowedHosts = allowedHosts;
        }

        @Override
        public void resolve(String host, int port, Promise<List<InetSocketAddress>> promise) {
            threads.execute(() -> {
                InetAddress[] all;
                try {
                    all = InetAddress.getAllByName(host);
                } catch (UnknownHostException e) {
                    promise.failed(new UnknownHostException("cannot resolve " + host));
                    return;
                }
                List<InetSocketAddress> usable = new ArrayList<>();
                String refusal = null;
                for (InetAddress address : all) {
                    String why = allowedHosts.refusal(host, address);
                    if (why == null) {
                        usable.add(new InetSocketAddress(address, port));
                    } else if (refusal == null) {
                        refusal = why;
                    }
                }
                if (usable.isEmpty()) {
                    promise.failed(new RefusedAddress(refusal));
                } else {
                    promise.succeeded(usable);
                }
            });
        }
    }
}
