package org.gridcache.door.namespace;

import java.util.Optional;

/**
 * RFC 4331 quota of a collection, where its origin says: a WebDAV origin's own numbers, as its listing carried them
 * on the entry (no request of its own); for a {@code file://} origin, its root's file system. Absent for GridFTP
 * origins, for WebDAV origins that report none, and for the door's virtual collections (mount points as their
 * parent lists them: a PROPFIND of the mount point itself asks its origin).
 */
public final class CollectionQuotas {
    private final Namespace namespace;
    private final LocalOrigins localOrigins;

    public CollectionQuotas(Namespace namespace, LocalOrigins localOrigins) {
        this.namespace = namespace;
        this.localOrigins = localOrigins;
    }

    /** The quota of {@code collection} (the entry its origin showed the request's subject); empty when it says none. */
    public Optional<Quota> of(NamespaceEntry collection) {
        if (collection.quota() != null) {
            return Optional.of(collection.quota());
        }
        return namespace.originOf(collection.path()).filter(o -> o.url().startsWith("file:")).flatMap(localOrigins::quota);
    }
}
