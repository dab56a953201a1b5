package org.gridcache.door;

import java.io.Closeable;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.apache.curator.framework.CuratorFramework;
import org.eclipse.jetty.client.HttpClient;
import org.eclipse.jetty.http.HttpField;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.util.thread.QueuedThreadPool;
import org.gridcache.common.Json;
import org.gridcache.common.TicketCodec;
import org.gridcache.zk.ClusterConfig;
import org.gridcache.zk.EphemeralRegistration;
import org.gridcache.zk.MountTable;
import org.gridcache.zk.PoolDirectory;
import org.gridcache.zk.ZkLayout;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A running WebDAV door: Jetty with Milton over the namespace of the mount table, watching {@code /pools},
 * {@code /origins} and {@code /config} in ZooKeeper and registered as {@code /doors/<id>}. Closing it stops all of
 * that but leaves the shared ZooKeeper client open.
 */
public final class Door implements Closeable {
    private static final Logger LOG = LoggerFactory.getLogger(Door.class);
    private static final Duration ZK_INITIAL_WAIT = Duration.ofSeconds(15);
    private static final Duration REGISTRATION_REFRESH = Duration.ofSeconds(30);
    private final List<AutoCloseable> parts = new ArrayList<>(); // closed in reverse order
    private int port;
    private String url;

    private Door() {
    }

    /** Starts Jetty with Milton, watches /pools, /origins and /config, registers /doors/&lt;id&gt;. */
    public static Door start(DoorSettings settings, CuratorFramework zk) throws Exception {
        Door door = new Door();
        try {
            door.startParts(settings, zk);
            return door;
        } catch (Exception | Error e) {
            door.close();
            throw e;
        }
    }

    private void startParts(DoorSettings settings, CuratorFramework zk) throws Exception {
        PoolDirectory pools = own(new PoolDirectory(zk)).start(ZK_INITIAL_WAIT);
        MountTable mounts = own(new MountTable(zk)).start(ZK_INITIAL_WAIT);
        ClusterConfig config = own(new ClusterConfig(zk)).start(ZK_INITIAL_WAIT);
        HttpClient http = httpClient(settings.id());
        parts.add(http::stop);
        http.start();

        Namespace namespace = new Namespace(mounts, new LocalOriginLister(), new WebDavOriginClient(http),
                config.current().listingCacheTtl());
        config.onChange(s -> namespace.setTtl(s.listingCacheTtl()));
        TicketIssuer tickets = new TicketIssuer(new TicketCodec(settings.ticketKey()), settings.id(), Clock.systemUTC());
        SelectionPolicies policies = new SelectionPolicies(() -> config.current().spillLoad(), config.current().selectionPolicy());
        config.onChange(s -> policies.set(s.selectionPolicy()));
        pools.setGrace(config.current().zkGrace());
        config.onChange(s -> pools.setGrace(s.zkGrace()));
        FileReads files = new FileReads(pools, policies::selector, tickets, new PoolProxy(http), config::current);
        DoorReadFilter filter = new DoorReadFilter(namespace, files, SubjectResolver.ANONYMOUS);
        MiltonDavServlet milton = new MiltonDavServlet(DoorHttpManagerBuilder.build(new DoorResourceFactory(namespace)));

        DoorServer server = new DoorServer(settings.id(), settings.bindHost(), settings.port(), filter, milton);
        parts.add(server::stop);
        server.start();
        port = server.port();
        url = settings.publicUrl() != null ? stripSlash(settings.publicUrl()) : "http://" + hostForUrl(settings.bindHost()) + ":" + port;

        DoorRecord record = new DoorRecord(settings.id(), url, version(), System.currentTimeMillis());
        EphemeralRegistration registration = own(new EphemeralRegistration(zk, ZkLayout.door(settings.id()),
                () -> Json.bytes(record), REGISTRATION_REFRESH));
        registration.awaitCreated(ZK_INITIAL_WAIT);
        LOG.info("door {} serving {}", settings.id(), url);
    }

    private <T extends AutoCloseable> T own(T part) {
        parts.add(part);
        return part;
    }

    private static HttpClient httpClient(String id) {
        QueuedThreadPool threads = new QueuedThreadPool(64, 2);
        threads.setName("door-" + id + "-client");
        threads.setDaemon(true);
        HttpClient http = new HttpClient();
        http.setExecutor(threads);
        http.setFollowRedirects(false);
        http.setConnectTimeout(10_000);
        http.setIdleTimeout(120_000);
        http.setUserAgentField(new HttpField(HttpHeader.USER_AGENT, "gridcache-door/" + version()));
        return http;
    }

    private static String hostForUrl(String bindHost) {
        if (bindHost == null || bindHost.isEmpty() || bindHost.equals("0.0.0.0") || bindHost.equals("::")) {
            return "localhost";
        }
        return bindHost.contains(":") ? "[" + bindHost + "]" : bindHost;
    }

    private static String stripSlash(String s) {
        return s.endsWith("/") ? s.substring(0, s.length() - 1) : s;
    }

    static String version() {
        String v = Door.class.getPackage().getImplementationVersion();
        return v != null ? v : "dev";
    }

    public int port() {
        return port;
    }

    public String url() {
        return url;
    }

    @Override
    public void close() {
        for (int i = parts.size() - 1; i >= 0; i--) {
            try {
                parts.get(i).close();
            } catch (Exception e) {
                LOG.warn("while closing the door: {}", e.toString());
            }
        }
        parts.clear();
    }
}
