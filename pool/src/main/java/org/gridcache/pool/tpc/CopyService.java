package org.gridcache.pool.tpc;

import eu.emi.security.authn.x509.X509Credential;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.http.HttpRequest;
import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;
import org.gridcache.common.ticket.Ticket;
import org.gridcache.common.checksum.ChecksumType;
import org.gridcache.common.net.AllowedHosts;
import org.gridcache.pool.access.DelegatedCredentials;
import org.gridcache.pool.origin.OriginAccess;
import org.gridcache.pool.fetch.Downloads;
import org.gridcache.pool.http.FetchException;
import org.gridcache.pool.fetch.StaleCopies;
import org.gridcache.pool.http.PoolClient;
import org.gridcache.pool.http.Refusal;
import org.gridcache.pool.mover.Movers;
import org.gridcache.pool.mover.PoolStats;
import org.gridcache.pool.origin.OriginUploader;
import org.gridcache.pool.store.Store;

/**
 * What a pool's third-party copies share: the pool's parts they use, the way to remotes ({@code tpc.allowed-hosts}, live), the worker threads
 * their blocking I/O runs on (one per copy running), and the marker interval ({@code tpc.marker-interval}, live).
 * {@link #start} starts each admitted COPY as a {@link CopyExchange}.
 */
public final class CopyService implements AutoCloseable {
    private final String poolName;
    private final Store store;
    private final Downloads downloads;
    private final OriginAccess access;
    private final List<OriginUploader> uploaders;
    private final StaleCopies staleCopies;
    private final PoolStats stats;
    private final Movers movers;
    private final Supplier<Set<ChecksumType>> kept;
    private final Supplier<Duration> markerInterval;
    private final RemoteHttp remote;
    private final ExecutorService workers;

    /**
     * {@code access} null: a pool without grid security (no user credentials); {@code client}: the pool's HTTP client,
     * with the TLS it presents and trusts.
     */
    public CopyService(String poolName, Store store,
                       Downloads downloads, OriginAccess access, PoolClient client, List<OriginUploader> uploaders,
                       StaleCopies staleCopies, PoolStats stats, Movers movers, Supplier<Set<ChecksumType>> kept,
                       Supplier<Duration> markerInterval, Supplier<AllowedHosts> allowedHosts) {
        this.movers = movers;
        this.poolName = poolName;
        this.store = store;
        this.downloads = downloads;
        this.access = access;
        this.uploaders = uploaders;
        this.staleCopies = staleCopies;
        this.stats = stats;
        this.kept = kept;
        this.markerInterval = markerInterval;
        this.remote = new RemoteHttp(client, allowedHosts);
        AtomicInteger n = new AtomicInteger();
        this.workers = Executors.newCachedThreadPool(r -> {
            Thread t = new Thread(r, poolName + "-tpc-" + n.incrementAndGet());
            t.setDaemon(true);
            return t;
        });
    }

    /**
     * Starts the third-party copy an admitted COPY asks for, on the connection {@code ctx}: {@code ticket} its (the
     * origin resolved), {@code token} as sent, {@code pull} whether it pulls from its {@code Source}. Refuses (400)
     * checksum or transfer headers it cannot honour before anything starts.
     */
    public CopyExchange start(ChannelHandlerContext ctx, HttpRequest head, Ticket ticket, String token, boolean pull)
            throws Refusal {
        return CopyExchange.start(this, ctx, head, ticket, token, pull);
    }

    String poolName() {
        return poolName;
    }

    Store store() {
        return store;
    }

    Downloads downloads() {
        return downloads;
    }

    List<OriginUploader> uploaders() {
        return uploaders;
    }

    StaleCopies staleCopies() {
        return staleCopies;
    }

    PoolStats stats() {
        return stats;
    }

    /** Where a copy counts as an active transfer (the pool's load, a drain's wait). */
    Movers movers() {
        return movers;
    }

    Set<ChecksumType> kept() {
        return kept.get();
    }

    Duration markerInterval() {
        return markerInterval.get();
    }

    ExecutorService workers() {
        return workers;
    }

    /**
     * Obtains the user's credential from the door when the ticket needs it (an origin written or read as the user,
     * or {@code Credential: gridsite}); returns the copy's own connections to the remote, presenting the user's proxy
     * for gridsite (closed by the copy when it ends).
     */
    RemoteSession openRemote(Ticket ticket, String token) throws CopyFailure {
        X509Credential user = null;
        if (ticket.needsUserCredential() || ticket.presentsUserProxyToRemote()) {
            if (access == null) {
                throw new CopyFailure("this pool has no grid security: it cannot act with the user's credential");
            }
            user = await(access.credential(ticket, token), "the door").credential();
        }
        return remote.open(ticket.presentsUserProxyToRemote() ? user : null);
    }

    /**
     * For a push of a file of an origin read as the user: the origin's permission for that user, as a GET's
     * ({@link OriginAccess#check}: fresh for a file this pool holds, else asked of the origin as the user).
     */
    void requireReadPermission(Ticket ticket, String token) throws CopyFailure {
        if (ticket.needsUserCredential()) {
            if (access == null) {
                throw new CopyFailure("this pool has no grid security: it cannot read origins as the user");
            }
            await(access.check(ticket, token, downloads.holds(ticket)), "the origin");
        }
    }

    /** Waits for {@code future}; a failure becomes a {@link CopyFailure} with the reason the pool's parts give. */
    static <T> T await(CompletableFuture<T> future, String who) throws CopyFailure {
        try {
            return future.get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new CopyFailure("interrupted");
        } catch (ExecutionException | CompletionException e) {
            Throwable cause = e.getCause();
            while (cause instanceof CompletionException && cause.getCause() != null) {
                cause = cause.getCause();
            }
            if (cause instanceof DelegatedCredentials.CompletionFailure failure) {
                throw new CopyFailure(failure.reason().getMessage());
            }
            if (cause instanceof FetchException f) {
                throw new CopyFailure(f.getMessage());
            }
            throw new CopyFailure(who + " failed: " + oneLine(cause));
        }
    }

    /** The remote's scheme, host and port: what a reason or log line may name of it (its path or query may hold a token). */
    static String hostOf(String url) {
        URI uri = URI.create(url);
        return uri.getScheme() + "://" + uri.getHost() + (uri.getPort() >= 0 ? ":" + uri.getPort() : "");
    }

    static String oneLine(Throwable e) {
        String m = e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
        return m.strip().lines().findFirst().orElse("");
    }

    @Override
    public void close() {
        workers.shutdownNow();
    }
}
