package org.gridcache.door.write;

import java.io.InputStream;
import org.gridcache.common.origin.OriginEntry;
import org.gridcache.common.security.GridSubject;
import org.gridcache.door.exchange.DoorException;
import org.gridcache.door.namespace.OriginIdentity;

/**
 * Changes an origin, as {@code OriginLister} reads one: for the subject of the request, presenting to the origin the
 * identity {@code as} that the subject has there (the user's delegation for {@code credential user}, else the door).
 * Namespace paths are normalised and lie below {@code origin.prefix()}, never the origin root itself; moves and copies
 * stay within the one origin. A collection's path is flagged ({@code collection}) where a server wants it slashed.
 * Every method answers the status for the client (201 created, 204 replaced or deleted) or throws a
 * {@link DoorException} with the origin's refusal (its status, one line): 403, 404, 405, 409, 412, 507, 502 for an
 * origin that is down or fails.
 */
public interface OriginWriter {
    /**
     * Streams {@code body} ({@code length} bytes, -1 unknown) to {@code path}; the origin never shows a part of it
     * where the protocol allows. A client that breaks off leaves nothing new behind.
     */
    Written put(GridSubject subject, OriginIdentity as, OriginEntry origin, String path, InputStream body, long length,
                String contentType);

    Written mkcol(GridSubject subject, OriginIdentity as, OriginEntry origin, String path);

    Written delete(GridSubject subject, OriginIdentity as, OriginEntry origin, String path, boolean collection);

    Written move(GridSubject subject, OriginIdentity as, OriginEntry origin, String from, String to, boolean collection,
                 boolean overwrite);

    /** {@code deep}: a collection with all its members (Depth: infinity), else the collection alone (Depth: 0). */
    Written copy(GridSubject subject, OriginIdentity as, OriginEntry origin, String from, String to, boolean collection,
                 boolean overwrite, boolean deep);

    /** What the client is answered: a status, and for a 207 (a partial failure) the origin's multistatus. */
    record Written(int status, byte[] multistatus) {
        public static final Written CREATED = new Written(201, null);
        public static final Written NO_CONTENT = new Written(204, null);

        public static Written createdOrReplaced(boolean replaced) {
            return replaced ? NO_CONTENT : CREATED;
        }
    }
}
