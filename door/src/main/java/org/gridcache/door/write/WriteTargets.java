package org.gridcache.door.write;

import jakarta.servlet.http.HttpServletRequest;
import java.util.List;
import java.util.function.Consumer;
import java.util.function.Supplier;
import org.gridcache.common.GridPath;
import org.gridcache.common.origin.OriginEntry;
import org.gridcache.common.authz.Activity;
import org.gridcache.common.security.GridSubject;
import org.gridcache.door.auth.AccessCheck;
import org.gridcache.door.auth.AuthzPolicy;
import org.gridcache.door.exchange.DoorException;
import org.gridcache.door.lock.LockChecks;
import org.gridcache.door.lock.LockChecks.Reach;
import org.gridcache.door.namespace.Namespace;
import org.gridcache.door.namespace.NamespaceEntry;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The namespace as a write sees it: which origin may be written at a path, what is there now, whether its parent is a
 * collection, and, after every write that reached an origin, the cached views of what changed dropped here and at the
 * other doors ({@code WriteNotices}).
 */
final class WriteTargets {
    private static final Logger LOG = LoggerFactory.getLogger(WriteTargets.class);
    private final Namespace namespace;
    private final Supplier<AuthzPolicy> policy;
    private final LockChecks locks;
    private final Consumer<List<String>> notices;

    WriteTargets(Namespace namespace, Supplier<AuthzPolicy> policy, LockChecks locks, Consumer<List<String>> notices) {
        this.namespace = namespace;
        this.policy = policy;
        this.locks = locks;
        this.notices = notices;
    }

    /** The origin that may be written at {@code path}: not an origin's root, not a virtual collection. */
    OriginEntry writable(String path, String method) {
        OriginEntry origin = namespace.originOf(path).orElseThrow(() ->
                new DoorException(403, "no origin serves " + path + ": nothing can be written there"));
        if (origin.prefix().equals(path)) {
            throw new DoorException(method.equals("MKCOL") ? 405 : 403, path + " is the root of origin " + origin.name()
                    + ": it is not " + (method.equals("MKCOL") ? "made" : "changed") + " through the door");
        }
        return origin;
    }

    /**
     * 409 unless the parent of {@code path} is a collection (RFC 4918: no intermediate collections are made). Asked
     * here, from the door's cache, because origins differ: nginx answers a PUT without a parent with 500.
     */
    void requireParentCollection(GridSubject subject, String path) {
        String parent = GridPath.parent(path);
        NamespaceEntry entry;
        try {
            entry = namespace.stat(subject, parent);
        } catch (DoorException e) {
            if (e.status() == 404) {
                throw new DoorException(409, "conflict: there is no collection " + parent + " to hold " + GridPath.name(path));
            }
            throw e;
        }
        if (!entry.collection()) {
            throw new DoorException(409, "conflict: " + parent + " is not a collection");
        }
    }

    /** What is at {@code path} now, or null when nothing is. */
    NamespaceEntry existing(GridSubject subject, String path) {
        try {
            return namespace.stat(subject, path);
        } catch (DoorException e) {
            if (e.status() == 404) {
                return null;
            }
            throw e;
        }
    }

    /**
     * The parent a collection, no collection at {@code path}, the right to remove a file there, the locks passed; what
     * is there now, or null.
     */
    NamespaceEntry requireFileTarget(HttpServletRequest request, GridSubject subject, String path) {
        requireParentCollection(subject, path);
        NamespaceEntry existing = existing(subject, path);
        if (existing != null && existing.collection()) {
            throw new DoorException(409, "conflict: " + path + " is a collection");
        }
        if (existing != null) {
            AccessCheck.require(policy.get(), subject, path, Activity.DELETE); // a replaced file is a removed one
        }
        locks.requireWritable(subject, path, existing == null ? Reach.NEW_MEMBER : Reach.RESOURCE, request);
        return existing;
    }

    /** Drops this door's cached view of {@code paths} (and below, and their parents) and tells the other doors. */
    void changed(List<String> paths) {
        paths.forEach(namespace::invalidate);
        try {
            notices.accept(paths);
        } catch (RuntimeException e) {
            LOG.warn("cannot tell the other doors of a write to {}: {}", paths, e.toString());
        }
    }
}
