package org.gridcache.pool;

import java.io.Closeable;
import org.gridcache.common.settings.ClusterSettings.Keys;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.curator.framework.CuratorFramework;
import org.gridcache.common.Json;
import org.gridcache.common.checksum.ChecksumComputation;
import org.gridcache.common.cluster.PoolRecord;
import org.gridcache.common.ticket.TicketCodec;
import org.gridcache.common.ticket.TicketKeys;
import org.gridcache.common.security.X509Authenticator;
import org.gridcache.pool.access.DelegatedCredentials;
import org.gridcache.pool.http.PoolClient;
import org.gridcache.pool.http.PoolSecurity;
import org.gridcache.pool.origin.OriginAccess;
import org.gridcache.pool.fetch.BlockFetches;
import org.gridcache.pool.fetch.Downloads;
import org.gridcache.pool.mover.Movers;
import org.gridcache.pool.ops.PoolMXBean;
import org.gridcache.pool.ops.PoolOperations;
import org.gridcache.pool.mover.PoolStats;
import org.gridcache.pool.origin.FileOriginFetcher;
import org.gridcache.pool.origin.gridftp.GridFtpOriginFetcher;
import org.gridcache.pool.origin.HttpOriginFetcher;
import org.gridcache.pool.origin.Origins;
import org.gridcache.pool.http.ReceiveSlabs;
import org.gridcache.pool.origin.RedirectPolicy;
import org.gridcache.pool.fetch.PeerFetcher;
import org.gridcache.pool.peer.Peers;
import org.gridcache.pool.serve.PoolChannelInitializer;
import org.gridcache.pool.tpc.CopyService;
import org.gridcache.pool.serve.PoolServer;
import org.gridcache.pool.http.PoolTls;
import org.gridcache.pool.store.Store;
import org.gridcache.zk.ClusterConfig;
import org.gridcache.zk.EphemeralRegistration;
import org.gridcache.zk.MountTable;
import org.gridcache.zk.PublishedTicketKeys;
import org.gridcache.zk.PoolDirectory;
import org.gridcache.zk.layout.ZkLayout;
import org.gridcache.zk.WriteNotices;
import org.gridcache.zk.ZooKeeperConnection;
import org.gridcache.pool.fetch.StaleCopies;
import org.gridcache.pool.origin.FileOriginUploader;
import org.gridcache.pool.origin.HttpOriginUploader;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A cache pool: a Netty HTTP server that checks tickets and serves files from its {@link Store}, fetching misses
 * from their origins. Registered in ZooKeeper as {@code /pools/<name>} while it runs; watches {@code /config} for
 * its watermarks. The ZooKeeper client is shared with the caller (the door may use it too) and is never closed here.
 */
public final class Pool implements Closeable {
    private static final Logger LOG = LoggerFactory.getLogger(Pool.class);
    static final Duration REGISTRATION_PERIOD = Duration.ofSeconds(2);
    public static final Duration ORIGIN_READ_TIMEOUT = Duration.ofSeconds(60);
    private static final Duration ZK_WAIT = Duration.ofSeconds(20);
    private static final String VERSION = versionOf();

    private final PoolSettings settings;
    private final long startedAt = Instant.now().getEpochSecond();
    private String hostDn;
    private final ClusterConfig config;
    private final Store store;
    private final Movers movers;
    private final PoolStats stats;
    private final PoolServer server;
    private final ScheduledExecutorService publisher;
    private final EarlyPublications earlyPublications;
    private final AtomicBoolean closed = new AtomicBoolean();
    private Downloads downloads;
    private BlockFetches blocks;
    private CopyService copies;
    private Origins origins;
    private EphemeralRegistration registration;
    /**
     * The mount table: the roots of file:// origins, the hosts redirects may lead to, a ticket's path (tickets name no
     * origin) or evict(path) to origin URL to store key, and a stored file's origin URL to its origin (its bytes' account).
     */
    private final MountTable mounts;
    /** The doors' write notices: this pool drops its copies of files written through them. */
    private WriteNotices writeNotices;
    private PoolOperations operations;
    /** The peers, as the doors see them: whom to ask on a miss. */
    private PoolDirectory directory;
    private PublishedTicketKeys ticketKeys;
    private ZooKeeperConnection zooKeeper;
    private int port;
    private volatile String url;

    private Pool(PoolSettings settings, ClusterConfig config, MountTable mounts, Store store) {
        this.settings = settings;
        this.config = config;
        this.mounts = mounts;
        this.store = store;
        this.stats = new PoolStats(settings.name());
        this.movers = new Movers(this::publishSoon, settings.name(), stats);
        this.server = new PoolServer(settings.name());
        this.publisher = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, settings.name() + "-publish");
            t.setDaemon(true);
            return t;
        });
        this.earlyPublications = new EarlyPublications(() -> registration.publishNow(),
                (task, delayNanos) -> publisher.schedule(task, delayNanos, TimeUnit.NANOSECONDS), System::nanoTime,
                EarlyPublications.MIN_INTERVAL, EarlyPublications.SETTLE);
    }

    /** Opens the store (rebuilding the index, dropping partial files), binds the Netty server, registers /pools/<name>, watches /config. */
    public static Pool start(PoolSettings settings, CuratorFramework zk) throws Exception {
        ChecksumComputation.compileEarly(); // fills checksum every byte they receive
        ClusterConfig config = new ClusterConfig(zk).start(ZK_WAIT);
        MountTable mounts = null;
        Pool pool;
        try {
            // the mount table before the store: the store counts each replica it proves under its origin
            mounts = new MountTable(zk).start(ZK_WAIT);
            Store store = Store.open(settings.store(), settings.capacityBytes(), config::current, settings.storeMode(),
                    mounts::originOf);
            pool = new Pool(settings, config, mounts, store);
        } catch (Exception e) {
            if (mounts != null) {
                mounts.close();
            }
            config.close();
            throw e;
        }
        try {
            pool.run(zk);
        } catch (Exception e) {
            pool.close();
            throw e;
        }
        return pool;
    }

    private void run(CuratorFramework zk) throws Exception {
        PoolSecurity security = settings.security();
        hostDn = security.tls() ? X509Authenticator.slashDn(security.hostCredential().getCertificate().getSubjectX500Principal()) : null;
        PoolClient client = new PoolClient(server.workers(), server.clientChannel(), security);
        DelegatedCredentials credentials = security.tls() ? new DelegatedCredentials(client) : null;
        ReceiveSlabs slabs = new ReceiveSlabs(() -> config.current().get(Keys.WRITE_BEHIND));
        GridFtpOriginFetcher gridftp = new GridFtpOriginFetcher(credentials, security.hostCredential(),
                security.tls() ? security.trust().caDir() : null, config::current, ORIGIN_READ_TIMEOUT, slabs);
        stats.gridFtpConnections(gridftp.connections()::opened, gridftp.connections()::reused, gridftp.connections()::idle);
        stats.receiveMemory(slabs::allocatedBytes, slabs::heldBytes, slabs::waitingBytes);
        stats.watermarks(() -> config.current().get(Keys.WATERMARK_HIGH), () -> config.current().get(Keys.WATERMARK_LOW));
        zooKeeper = ZooKeeperConnection.watch(zk);
        stats.zooKeeper(zooKeeper);
        HttpOriginFetcher http = new HttpOriginFetcher(client, ORIGIN_READ_TIMEOUT, credentials,
                new RedirectPolicy(mounts::entries, () -> config.current().get(Keys.REDIRECT_HOSTS)), slabs);
        origins = new Origins(List.of(http, new FileOriginFetcher(mounts::entries, settings.fileOriginRoots()), gridftp));
        directory = new PoolDirectory(zk).start(ZK_WAIT);
        ticketKeys = new PublishedTicketKeys(zk, directory).start(ZK_WAIT);
        // verifies with the keys doors and pools publish; signs the tickets this pool gives its peers with its own
        TicketKeys trusted = settings.doorKeys() == null ? ticketKeys : TicketKeys.anyOf(ticketKeys, settings.doorKeys());
        TicketCodec tickets = new TicketCodec(settings.ticketKey(), trusted, settings.maxTicketLifetime(), Clock.systemUTC());
        Peers peers = new Peers(settings.name(), directory, tickets, () -> config.current().get(Keys.PEER_TIMEOUT), client);
        downloads = new Downloads(store, origins.all(), () -> config.current().get(Keys.WRITE_BEHIND), new PeerFetcher(peers, http),
                () -> config.current().get(Keys.POOL_CHECKSUMS));
        blocks = new BlockFetches(store, () -> Math.toIntExact(config.current().get(Keys.BLOCK_SIZE)),
                () -> config.current().get(Keys.BLOCK_PREFETCH));
        OriginAccess access = credentials == null ? null
                : new OriginAccess(credentials, origins, () -> config.current().get(Keys.PERMISSION_CACHE_TTL));
        operations = new PoolOperations(settings.name(), settings.site(), this::url, store, movers, stats, mounts, this::publishSoon);
        StaleCopies staleCopies = new StaleCopies(store, path -> mounts.resolve(path).map(o -> o.urlOf(path)), Clock.systemUTC());
        writeNotices = WriteNotices.watch(zk, staleCopies::written, staleCopies::writtenUnknown).start(ZK_WAIT);
        PoolChannelInitializer.Uploads uploads = new PoolChannelInitializer.Uploads(List.of(new HttpOriginUploader(http),
                new FileOriginUploader(mounts::entries, settings.fileOriginRoots()), gridftp.uploader()), staleCopies,
                () -> config.current().get(Keys.POOL_CHECKSUMS));
        copies = new CopyService(settings.name(), store, downloads, access,
                client, uploads.uploaders(), staleCopies, stats, movers,
                () -> config.current().get(Keys.POOL_CHECKSUMS), () -> config.current().get(Keys.TPC_MARKER_INTERVAL),
                () -> config.current().get(Keys.TPC_ALLOWED_HOSTS));
        port = server.bind(settings.bindHost(), settings.port(), new PoolChannelInitializer(
                new PoolChannelInitializer.Parts(settings.name(), tickets, mounts, downloads, store, movers, operations, stats, access,
                        peers, origins, blocks, () -> config.current().get(Keys.POOL_HEADER_TIMEOUT),
                        () -> config.current().get(Keys.POOL_SEND_TIMEOUT)), uploads, copies,
                security.tls() ? PoolTls.server(security.hostCredential()) : null));
        url = settings.publicUrl() != null ? settings.publicUrl()
                : (security.tls() ? "https://" : "http://") + settings.bindHost() + ":" + port;
        config.onChange(s -> store.evictIfNeeded()); // a lowered watermark takes effect at once
        registration = new EphemeralRegistration(zk, ZkLayout.pool(settings.name()), () -> Json.bytes(record()), REGISTRATION_PERIOD);
        registration.awaitCreated(ZK_WAIT);
        LOG.info("pool {} serving {} at {}: store {} ({} files, {} of {} bytes free)", settings.name(),
                settings.site(), url, settings.store(), store.files(), store.freeBytes(), store.capacity());
    }

    public int port() {
        return port;
    }

    public String url() {
        return url;
    }

    /** What {@code /pools/<name>} says about this pool now. */
    PoolRecord record() {
        int active = movers.active();
        long bytesPerSec = movers.bytesPerSecOut();
        return new PoolRecord(settings.name(), url, settings.site(), store.capacity(), store.freeBytes(), active,
                bytesPerSec, Movers.load(active, bytesPerSec), VERSION, startedAt,
                operations.state(), stats.hits(), stats.misses(), hostDn, settings.ticketKey().publicJwk(),
                store.origins().largest(PoolRecord.ORIGINS_PUBLISHED), movers.transfers().snapshot());
    }

    /** The mount table as this pool sees it. */
    MountTable mounts() {
        return mounts;
    }

    /** The pools registered now, as this pool sees them (itself included). */
    List<PoolRecord> poolsSeen() {
        return directory.live();
    }

    org.gridcache.common.settings.ClusterSettings settings() {
        return config.current();
    }

    int activeMovers() {
        return movers.active();
    }

    Store store() {
        return store;
    }

    /** Where fills and uploads write and checksum (tests hold it up to show the event loops do not wait on it). */
    java.util.concurrent.Executor diskWriters() {
        return downloads.diskWriters();
    }

    /** Where checksums a client asks for and a fill did not compute are computed (tests hold it up). */
    org.gridcache.pool.store.ChecksumsOnDemand checksumsOnDemand() {
        return downloads.checksumsOnDemand();
    }

    PoolMXBean operations() {
        return operations;
    }

    /** Publishes off the event loop, at most once per {@link EarlyPublications#MIN_INTERVAL}. */
    private void publishSoon() {
        if (registration != null) {
            earlyPublications.request();
        }
    }

    /** Deregisters first (doors stop sending clients), then stops accepting, fails fetches in flight, stops. */
    @Override
    public void close() {
        if (!closed.compareAndSet(false, true)) {
            return;
        }
        if (registration != null) {
            registration.close();
        }
        server.stopAccepting();
        if (copies != null) {
            copies.close();
        }
        if (downloads != null) {
            downloads.close();
        }
        if (blocks != null) {
            blocks.close();
        }
        if (origins != null) {
            origins.close();
        }
        server.close();
        store.close(); // its evictor thread; the files stay
        publisher.shutdownNow();
        if (operations != null) {
            operations.close();
        }
        if (writeNotices != null) {
            writeNotices.close();
        }
        mounts.close();
        if (ticketKeys != null) {
            ticketKeys.close();
        }
        if (directory != null) {
            directory.close();
        }
        if (zooKeeper != null) {
            zooKeeper.close();
        }
        config.close();
        LOG.info("pool {} stopped", settings.name());
    }

    private static String versionOf() {
        String v = Pool.class.getPackage().getImplementationVersion();
        return v != null ? v : "dev";
    }
}
