package org.gridcache.zk.lock;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.regex.Pattern;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.api.transaction.CuratorOp;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.data.Stat;
import org.gridcache.common.Json;
import org.gridcache.zk.Zk;
import org.gridcache.zk.layout.ZkLayout;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The WebDAV locks of the whole cluster, in ZooKeeper ({@code /locks/<uuid>}, one JSON {@link DavLock} each), so a
 * lock taken through one door holds at every door. Locks are rare and short, so every call reads ZooKeeper itself
 * rather than a watched copy: a write checked at one door right after a LOCK at another sees it.
 *
 * <p>Two doors granting overlapping locks at once is prevented optimistically: every grant reads the version of
 * {@code /locks}, checks the live locks for a conflict, and creates its lock in one transaction with a {@code setData}
 * of {@code /locks} at that version; a grant that lost the race sees its transaction fail and checks again. Expired
 * locks are ignored, and deleted by the next grant.
 *
 * <p>While ZooKeeper is unreachable every call fails at once with Curator's {@code ConnectionLossException}
 * ({@link Zk#requireConnected}): the door answers 503, and the client retries.
 */
public final class LockTable {
    private static final Logger LOG = LoggerFactory.getLogger(LockTable.class);
    public static final String TOKEN_PREFIX = "opaquelocktoken:";
    private static final Pattern UUID_FORM = Pattern.compile("[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}");
    /**
     * The live locks one subject may hold in the cluster: each is a znode of up to 64 KiB of owner XML that every
     * write reads, so one subject must not fill ZooKeeper or slow every write down.
     */
    public static final int MAX_PER_SUBJECT = 100;
    private static final int MAX_ATTEMPTS = 50;
    private final CuratorFramework zk;
    private final Clock clock;

    public LockTable(CuratorFramework zk, Clock clock) throws Exception {
        this.zk = zk;
        this.clock = clock;
        // on a secured cluster the server made it (members may not create beside /pools and /doors): only look
        if (zk.checkExists().forPath(ZkLayout.LOCKS) == null) {
            try {
                zk.create().creatingParentsIfNeeded().forPath(ZkLayout.LOCKS, new byte[0]);
            } catch (KeeperException.NodeExistsException e) {
                // another door made it meanwhile
            }
        }
    }

    /**
     * Grants a lock on {@code path}, or says which live lock stands in its way, or that {@code principal} holds
     * {@link #MAX_PER_SUBJECT} live locks already.
     */
    public DavLock lock(String path, boolean exclusive, boolean infinite, String owner, String principal, Duration timeout)
            throws Exception {
        return lock(path, exclusive, infinite, owner, principal, timeout, UUID.randomUUID().toString());
    }

    /**
     * As above, the lock to be {@code uuid}'s. One grant keeps one uuid through all its attempts: when the connection
     * is lost after ZooKeeper committed the grant but before its answer arrived, Curator runs the transaction again,
     * which fails on the version of {@code /locks} that the first run bumped; the next attempt then finds the grant's
     * own lock in the table, and returns it instead of refusing the path as locked by it (an orphan lock, held until it
     * expires, and a 423 for the client that was granted it).
     */
    DavLock lock(String path, boolean exclusive, boolean infinite, String owner, String principal, Duration timeout, String uuid)
            throws Exception {
        for (int attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
            Zk.requireConnected(zk);
            Stat table = new Stat();
            zk.getData().storingStatIn(table).forPath(ZkLayout.LOCKS);
            Instant now = clock.instant();
            List<CuratorOp> ops = new ArrayList<>();
            int held = 0;
            for (Stored stored : readAll()) {
                if (stored.lock().token().equals(TOKEN_PREFIX + uuid)) {
                    return stored.lock(); // granted by an earlier attempt whose answer was lost
                }
                if (stored.lock().expiredAt(now)) {
                    ops.add(zk.transactionOp().delete().forPath(stored.znode()));
                } else if (stored.lock().conflictsWith(path, exclusive, infinite)) {
                    throw new LockConflictException(stored.lock().path(), stored.lock().path().equals(path)
                            ? path + " is locked" : path + " is within a lock of " + stored.lock().path());
                } else if (stored.lock().principal().equals(principal)) {
                    held++;
                }
            }
            if (held >= MAX_PER_SUBJECT) {
                throw new LockLimitException(principal + " holds " + held + " live locks, the most one subject may: unlock some first");
            }
            DavLock lock = new DavLock(TOKEN_PREFIX + uuid, path, exclusive, infinite, owner, principal,
                    timeout.toSeconds(), now.plus(timeout).toEpochMilli());
            ops.add(zk.transactionOp().setData().withVersion(table.getVersion()).forPath(ZkLayout.LOCKS, new byte[0]));
            ops.add(zk.transactionOp().create().forPath(znode(uuid), Json.bytes(lock)));
            try {
                zk.transaction().forOperations(ops);
                return lock;
            } catch (KeeperException.BadVersionException | KeeperException.NoNodeException e) {
                // another grant (or an expiry clean-up) changed the table meanwhile: look again
            }
        }
        throw new IllegalStateException("could not grant a lock on " + path + ": the lock table kept changing");
    }

    /** Extends a live lock by {@code timeout} from now; empty when there is no such live lock. */
    public Optional<DavLock> refresh(String token, String principal, Duration timeout) throws Exception {
        Optional<Stored> found = find(token);
        if (found.isEmpty()) {
            return Optional.empty();
        }
        DavLock lock = found.get().lock();
        requireOwner(lock, principal);
        DavLock refreshed = new DavLock(lock.token(), lock.path(), lock.exclusive(), lock.infinite(), lock.owner(),
                lock.principal(), timeout.toSeconds(), clock.instant().plus(timeout).toEpochMilli());
        try {
            zk.setData().withVersion(found.get().version()).forPath(found.get().znode(), Json.bytes(refreshed));
            return Optional.of(refreshed);
        } catch (KeeperException.BadVersionException | KeeperException.NoNodeException e) {
            return Optional.empty(); // unlocked or refreshed by another door at the same moment
        }
    }

    /** Removes a live lock; false when there was none of that token. */
    public boolean unlock(String token, String principal) throws Exception {
        Optional<Stored> found = find(token);
        if (found.isEmpty()) {
            return false;
        }
        requireOwner(found.get().lock(), principal);
        try {
            zk.delete().withVersion(found.get().version()).forPath(found.get().znode());
        } catch (KeeperException.NoNodeException e) {
            // gone: unlocked by the same subject at another door, or deleted by this very call in an attempt whose
            // answer a connection loss hid (Curator then ran it again); either way the lock is no more
        }
        return true;
    }

    /**
     * Refuses a write to {@code path} (and, for a {@code recursive} one such as DELETE or MOVE of a collection, to what
     * is below it) unless every live lock in the way was taken by {@code principal} and its token is among those the
     * request submitted (RFC 4918 §7: the {@code If} header).
     */
    public void checkWrite(String path, boolean recursive, Set<String> submittedTokens, String principal) throws Exception {
        Instant now = clock.instant();
        for (Stored stored : readAll()) {
            DavLock lock = stored.lock();
            boolean inTheWay = lock.covers(path) || recursive && DavLock.isBelow(lock.path(), path);
            if (inTheWay && !lock.expiredAt(now)
                    && !(submittedTokens.contains(lock.token()) && lock.principal().equals(principal))) {
                throw new LockConflictException(lock.path(), lock.path().equals(path)
                        ? path + " is locked" : path + " is within a lock of " + lock.path());
            }
        }
    }

    /** The live locks that apply to {@code path} (for lockdiscovery). */
    public List<DavLock> covering(String path) throws Exception {
        return live().stream().filter(l -> l.covers(path)).toList();
    }

    /** Every live lock of the cluster: one read of the table, for a request that asks about many paths. */
    public List<DavLock> live() throws Exception {
        Instant now = clock.instant();
        return readAll().stream().map(Stored::lock).filter(l -> !l.expiredAt(now)).toList();
    }

    /**
     * Removes every lock rooted at {@code path} or below it, whoever took it: the resource is gone (DELETE) or elsewhere
     * (MOVE's source), and a lock does not follow a resource (RFC 4918 §7.7). Returns how many were removed.
     */
    public int dropAt(String path) throws Exception {
        int dropped = 0;
        for (Stored stored : readAll()) {
            if (stored.lock().path().equals(path) || DavLock.isBelow(stored.lock().path(), path)) {
                try {
                    zk.delete().forPath(stored.znode());
                    dropped++;
                } catch (KeeperException.NoNodeException e) {
                    // unlocked or dropped by another door meanwhile
                }
            }
        }
        return dropped;
    }

    private static void requireOwner(DavLock lock, String principal) throws LockOwnerException {
        if (!lock.principal().equals(principal)) {
            throw new LockOwnerException("the lock on " + lock.path() + " belongs to another subject");
        }
    }

    private Optional<Stored> find(String token) throws Exception {
        if (token == null || !token.startsWith(TOKEN_PREFIX) || !UUID_FORM.matcher(token.substring(TOKEN_PREFIX.length())).matches()) {
            return Optional.empty();
        }
        Optional<Stored> stored = read(token.substring(TOKEN_PREFIX.length()));
        return stored.filter(s -> !s.lock().expiredAt(clock.instant()));
    }

    private List<Stored> readAll() throws Exception {
        List<Stored> out = new ArrayList<>();
        Zk.requireConnected(zk);
        for (String child : zk.getChildren().forPath(ZkLayout.LOCKS)) {
            read(child).ifPresent(out::add);
        }
        return out;
    }

    /** One lock znode, checked: a record that is not one {@link #lock} could have written is ignored (logged). */
    private Optional<Stored> read(String uuid) throws Exception {
        Stat stat = new Stat();
        byte[] data;
        Zk.requireConnected(zk); // a table of many locks read during an outage fails at its first, not its last
        try {
            data = zk.getData().storingStatIn(stat).forPath(znode(uuid));
        } catch (KeeperException.NoNodeException e) {
            return Optional.empty();
        }
        try {
            DavLock lock = Json.read(data, DavLock.class);
            if (!UUID_FORM.matcher(uuid).matches() || !(TOKEN_PREFIX + uuid).equals(lock.token()) || lock.path() == null
                    || !lock.path().startsWith("/") || lock.principal() == null || lock.timeoutSeconds() <= 0) {
                throw new IllegalArgumentException("not a lock record of its own token with a path, subject and timeout");
            }
            return Optional.of(new Stored(znode(uuid), stat.getVersion(), lock));
        } catch (RuntimeException e) {
            LOG.error("ignoring lock {}: {}", znode(uuid), e.getMessage());
            return Optional.empty();
        }
    }

    private static String znode(String uuid) {
        return ZkLayout.LOCKS + "/" + uuid;
    }

    private record Stored(String znode, int version, DavLock lock) {
    }
}
