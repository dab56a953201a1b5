package org.gridcache.door;

import java.io.Closeable;
import java.nio.file.Path;
import org.gridcache.common.settings.ClusterSettings;
import org.gridcache.common.settings.ClusterSettings.Keys;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.apache.curator.framework.CuratorFramework;
import org.eclipse.jetty.client.HttpClient;
import org.eclipse.jetty.client.transport.HttpClientTransportOverHTTP;
import org.eclipse.jetty.http.HttpField;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.io.ClientConnector;
import org.eclipse.jetty.util.thread.QueuedThreadPool;
import org.gridcache.common.Json;
import org.gridcache.common.checksum.ChecksumComputation;
import org.gridcache.common.ticket.TicketCodec;
import org.gridcache.common.ticket.TicketSigningKey;
import org.gridcache.common.checksum.Checksums;
import org.gridcache.common.security.GridTls;
import org.gridcache.door.http.DoorAccounting;
import org.gridcache.door.http.DoorReadFilter;
import org.gridcache.door.http.DoorServer;
import org.gridcache.door.http.DoorServices;
import org.gridcache.door.ops.StorageReport;
import org.gridcache.door.lock.DoorLocks;
import org.gridcache.door.liveness.Pings;
import org.gridcache.door.liveness.PoolLiveness;
import org.gridcache.door.liveness.SelectablePools;
import org.gridcache.door.lock.LockChecks;
import org.gridcache.door.namespace.CollectionQuotas;
import org.gridcache.door.namespace.GridFtpOriginLister;
import org.gridcache.door.namespace.GridFtpOriginSessions;
import org.gridcache.door.namespace.LocalOriginLister;
import org.gridcache.door.namespace.Namespace;
import org.gridcache.door.namespace.OriginHttpClient;
import org.gridcache.door.namespace.WebDavOriginLister;
import org.gridcache.door.ops.DoorOperations;
import org.gridcache.door.namespace.LocalOrigins;
import org.gridcache.door.props.PropPatch;
import org.gridcache.door.read.FileReads;
import org.gridcache.door.read.PoolDigests;
import org.gridcache.door.read.PoolProxy;
import org.gridcache.door.read.TicketIssuer;
import org.gridcache.door.select.SelectionPolicies;
import org.gridcache.door.webdav.MiltonDavServlet;
import org.gridcache.door.tpc.CopyRedirects;
import org.gridcache.door.write.DoorWrites;
import org.gridcache.door.write.GridFtpOriginWriter;
import org.gridcache.door.write.LocalOriginWriter;
import org.gridcache.door.write.OriginWriters;
import org.gridcache.door.write.PutRedirects;
import org.gridcache.door.write.WebDavOriginWriter;
import org.gridcache.zk.ClusterConfig;
import org.gridcache.zk.EphemeralRegistration;
import org.gridcache.zk.MacaroonSecrets;
import org.gridcache.zk.MountTable;
import org.gridcache.zk.PoolDirectory;
import org.gridcache.zk.WriteNotices;
import org.gridcache.zk.layout.ZkLayout;
import org.gridcache.zk.lock.LockTable;
import org.gridcache.zk.props.DeadPropertyStore;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A running WebDAV door: Jetty with Milton over the namespace of the mount table, watching {@code /pools},
 * {@code /origins} and {@code /config} in ZooKeeper and registered as {@code /doors/<id>}. Closing it stops all of
 * that but leaves the shared ZooKeeper client open. Assembling the parts is all it does: each lives in the package of
 * its job (ARCHITECTURE.md, "Parts").
 */
public final class Door implements Closeable {
    private static final Logger LOG = LoggerFactory.getLogger(Door.class);
    private static final Duration ZK_INITIAL_WAIT = Duration.ofSeconds(15);
    private static final Duration REGISTRATION_REFRESH = Duration.ofSeconds(30);
    private static final Duration DESTINATION_IDLE = Duration.ofMinutes(2);
    private final List<AutoCloseable> parts = new ArrayList<>(); // closed in reverse order
    private int port;
    private String url;

    private Door() {
    }

    /** Starts Jetty with Milton, watches /pools, /origins and /config, registers /doors/&lt;id&gt;. */
    public static Door start(DoorSettings settings, CuratorFramework zk) throws Exception {
        ChecksumComputation.compileEarly(); // proxied writes checksum every byte
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
        DoorSecurity security = settings.security();
        HttpClient http = httpClient(settings.id(), security);
        parts.add(http::stop);
        http.start();

        // signs with the current key; verifies (its own tickets, at the credential service) with every published one
        TicketCodec codec = TicketCodec.of(settings.id(), settings.signingKey(), settings.ticketKeys());
        TicketIssuer tickets = new TicketIssuer(codec, settings.id(), Clock.systemUTC());
        // which pools answer, learnt in milliseconds rather than when ZooKeeper expires a dead pool's session
        PoolLiveness liveness = own(new PoolLiveness(Pings.client(settings.id(), security.tls()
                ? new OriginHttpClient.FreshSessionTls(security.hostCredential(), security.trust()) : null), pools::live,
                () -> config.current().get(Keys.POOL_PING_PERIOD), () -> config.current().get(Keys.POOL_PING_MISSES))).start();
        SelectablePools selectable = new SelectablePools(pools::selectable, liveness);
        DoorOperations ops = own(new DoorOperations(settings.id(), pools, liveness, selectable, config, zk));
        // the cluster's macaroon root key, made by the first TLS door (a plain door issues and accepts no bearer token)
        MacaroonSecrets macaroons = security.tls() ? own(new MacaroonSecrets(zk)).start(ZK_INITIAL_WAIT) : null;
        DoorGridSecurity grid = own(DoorGridSecurity.start(settings.id(), security, codec, () -> url, pools::live, macaroons,
                () -> config.current().get(Keys.MACAROON_MAX_VALIDITY)));
        GridFtpOriginSessions gridftpSessions = own(new GridFtpOriginSessions(security.tls() ? security.hostCredential() : null,
                security.tls() ? security.trust().caDir() : null));
        GridFtpOriginLister gridftp = new GridFtpOriginLister(gridftpSessions);
        ops.stats().gridFtpConnections(gridftpSessions::opened, gridftpSessions::reused, gridftpSessions::idle);
        Namespace namespace = new Namespace(mounts, new LocalOriginLister(settings.fileOriginRoots()),
                new WebDavOriginLister(http, () -> config.current().get(Keys.LISTING_MAX_BYTES)), gridftp, grid.originIdentities(),
                config.current().get(Keys.LISTING_CACHE_TTL), config.current().get(Keys.LISTING_CACHE_SIZE));
        config.onChange(s -> namespace.setTtl(s.get(Keys.LISTING_CACHE_TTL)));
        config.onChange(s -> namespace.setCacheBytes(s.get(Keys.LISTING_CACHE_SIZE)));
        WriteNotices notices = own(new WriteNotices(zk, settings.id(), namespace::invalidate, namespace::invalidateAll))
                .start(ZK_INITIAL_WAIT);
        LocalOrigins localOrigins = new LocalOrigins(settings.fileOriginRoots());
        DeadPropertyStore deadProperties = own(new DeadPropertyStore(zk)).start(ZK_INITIAL_WAIT);
        SelectionPolicies policies = new SelectionPolicies(() -> config.current().get(Keys.SPILL_LOAD), config.current().get(Keys.SELECTION_POLICY));
        config.onChange(s -> policies.set(s.get(Keys.SELECTION_POLICY)));
        pools.setGrace(config.current().get(Keys.ZK_GRACE));
        config.onChange(s -> pools.setGrace(s.get(Keys.ZK_GRACE)));
        FileReads files = new FileReads(pools, selectable, policies::selector, tickets, new PoolProxy(http, settings.id(), ops.stats(),
                () -> config.current().get(Keys.PROXY_MAX_TRANSFERS), liveness::doubt),
                config::current, ops.stats(), grid.delegations(), new PoolDigests(http));
        LockTable lockTable = new LockTable(zk, Clock.systemUTC());
        LockChecks lockChecks = new LockChecks(lockTable, namespace);
        DoorWrites writes = new DoorWrites(namespace, new OriginWriters(new LocalOriginWriter(settings.fileOriginRoots()),
                new WebDavOriginWriter(http), new GridFtpOriginWriter(gridftpSessions)), grid.originIdentities(), grid.policy(),
                notices::wrote, deadProperties,
                lockChecks, new PutRedirects(selectable, policies::selector, tickets, config::current,
                        () -> grid.delegations().credentialEndpoint()),
                new CopyRedirects(namespace, grid.policy(), selectable, policies::selector, tickets, config::current, grid.delegations()));
        DoorReadFilter filter = new DoorReadFilter(namespace, files, grid.subjects(), grid.policy(), grid.delegationService(),
                grid.credentialService(), new DoorServices(ops, pools, config::current,
                        new StorageReport(ops::getId, ops::getUrl, version(), mounts::entries)), ops.stats(), writes,
                new PropPatch(namespace, grid.policy(), deadProperties, lockChecks),
                new DoorLocks(lockTable, lockChecks, namespace, grid.policy(), writes::createEmpty), grid.macaroonRequests());
        MiltonDavServlet milton = MiltonDavServlet.over(namespace, (subject, path, entry) -> namespace.originOf(path)
                .map(origin -> files.cachedChecksums(origin, entry, subject)).orElse(Checksums.NONE), deadProperties::of,
                new CollectionQuotas(namespace, localOrigins)::of,
                lockChecks::live);

        DoorServer server = new DoorServer(settings.id(), settings.bindHost(), settings.port(), grid.serverTls(),
                new DoorAccounting(ops.stats()), filter, milton);
        parts.add(server::stop);
        applyLimits(server, config.current());
        config.onChange(s -> applyLimits(server, s));
        server.start();
        port = server.port();
        String scheme = security.tls() ? "https" : "http";
        url = settings.publicUrl() != null ? stripSlash(settings.publicUrl()) : scheme + "://" + hostForUrl(settings.bindHost()) + ":" + port;
        ops.serving(url, server::openConnections);

        DoorRecord record = new DoorRecord(settings.id(), url, version(), System.currentTimeMillis(),
                settings.ticketKeys().stream().map(TicketSigningKey::publicJwk).toList(),
                settings.fileOriginRoots().directories().stream().map(Path::toString).toList());
        EphemeralRegistration registration = own(new EphemeralRegistration(zk, ZkLayout.door(settings.id()),
                () -> Json.bytes(record), REGISTRATION_REFRESH));
        registration.awaitCreated(ZK_INITIAL_WAIT);
        LOG.info("door {} serving {}", settings.id(), url);
    }

    private static void applyLimits(DoorServer server, ClusterSettings s) {
        server.limits(s.get(Keys.DOOR_MAX_CONNECTIONS), s.get(Keys.DOOR_IDLE_TIMEOUT), s.get(Keys.DOOR_LOW_RESOURCES_IDLE_TIMEOUT),
                s.get(Keys.DOOR_HEADER_TIMEOUT));
    }

    private <T extends AutoCloseable> T own(T part) {
        parts.add(part);
        return part;
    }

    /** The door's client to origins and pools; with TLS it presents the host certificate and trusts the CA directory. */
    private static HttpClient httpClient(String id, DoorSecurity security) {
        QueuedThreadPool threads = new QueuedThreadPool(64, 2);
        threads.setName("door-" + id + "-client");
        threads.setDaemon(true);
        HttpClient http;
        if (security.tls()) {
            ClientConnector connector = new ClientConnector();
            connector.setSslContextFactory(new OriginHttpClient.FreshSessionTls(security.hostCredential(), security.trust()));
            http = new OriginHttpClient(new HttpClientTransportOverHTTP(connector), security.trust());
            // a user's requests have destinations of their own (OriginHttpClient): drop them when unused
            http.setDestinationIdleTimeout(DESTINATION_IDLE.toMillis());
        } else {
            http = new HttpClient();
        }
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
