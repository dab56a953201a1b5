package org.gridcache.door.namespace;

import java.util.List;
import org.gridcache.common.origin.OriginEntry;
import org.gridcache.common.security.GridSubject;
import org.gridcache.door.exchange.DoorException;

/**
 * Reads an origin's metadata: one entry, or the children of a collection, for the subject of the request, presenting
 * to the origin the identity {@code as} that the subject has there ({@link OriginIdentities}). Namespace paths given
 * here are normalised and lie below {@code origin.prefix()}. Failures are {@link DoorException}s: 404 for absent, 403
 * for refused, 502 for an origin that is down or answers nonsense.
 */
public interface OriginLister {
    NamespaceEntry stat(GridSubject subject, OriginIdentity as, OriginEntry origin, String path);

    List<NamespaceEntry> list(GridSubject subject, OriginIdentity as, OriginEntry origin, String dir);
}
