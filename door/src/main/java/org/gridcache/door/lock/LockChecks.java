package org.gridcache.door.lock;

import org.gridcache.door.exchange.DoorRequests;
import jakarta.servlet.http.HttpServletRequest;
import java.net.URI;
import java.net.URISyntaxException;
import java.util.List;
import org.gridcache.common.GridPath;
import org.gridcache.common.security.GridSubject;
import org.gridcache.door.exchange.DoorException;
import org.gridcache.door.namespace.Namespace;
import org.gridcache.door.namespace.NamespaceEntry;
import org.gridcache.zk.lock.DavLock;
import org.gridcache.zk.lock.LockConflictException;
import org.gridcache.zk.lock.LockTable;

/**
 * What a write must pass before it reaches an origin: its {@code If} header must hold (else 412), and every live lock
 * in its way, at any door, must have been taken by the same subject and submitted in {@code If} (else 423). The
 * door's writes ({@code DoorWrites}) and PROPPATCH call {@link #requireWritable}; a DELETE or MOVE that reached the
 * origin calls {@link #dropped}.
 */
public final class LockChecks {
    private final LockTable table;
    private final Namespace namespace;

    /** What a write changes, and so which locks are in its way (RFC 4918 §7.4, §7.5). */
    public enum Reach {
        /** The resource's content or properties (PUT over a file, PROPPATCH): the locks that cover it. */
        RESOURCE,
        /** A new member of a collection (PUT of a new file, MKCOL): also the locks of the parent, whose membership changes. */
        NEW_MEMBER,
        /** The resource and all below it leave or are replaced (DELETE, MOVE, COPY's destination), and the parent's membership. */
        TREE
    }

    public LockChecks(LockTable table, Namespace namespace) {
        this.table = table;
        this.namespace = namespace;
    }

    /** PROPPATCH's check (and any write of one resource's content): as {@link #requireWritable(GridSubject, String, Reach, HttpServletRequest)} with {@link Reach#RESOURCE}. */
    public void requireWritable(GridSubject subject, String path, HttpServletRequest request) {
        requireWritable(subject, path, Reach.RESOURCE, request);
    }

    /** 412 unless the request's {@code If} header holds; 423 unless the locks in the way of {@code reach} were submitted by their owner. */
    public void requireWritable(GridSubject subject, String path, Reach reach, HttpServletRequest request) {
        // an untagged list is about the request's own resource, even when the write checked is a MOVE's destination
        IfHeader conditions = requireConditions(subject,
                DoorRequests.namespacePath(request, request.getRequestURI(), "bad path"), request);
        try {
            table.checkWrite(path, reach == Reach.TREE, conditions.submittedTokens(), subject.name());
            if (reach != Reach.RESOURCE && !path.equals("/")) {
                table.checkWrite(GridPath.parent(path), false, conditions.submittedTokens(), subject.name());
            }
        } catch (LockConflictException e) {
            throw new DoorException(423, "locked: " + e.getMessage() + " (submit its lock token in If)");
        } catch (DoorException e) {
            throw e;
        } catch (Exception e) {
            throw lockTableUnavailable(e);
        }
    }

    /** Parses the request's {@code If} header and requires it to hold (412 otherwise); the parsed header, for its tokens. */
    public IfHeader requireConditions(GridSubject subject, String path, HttpServletRequest request) {
        IfHeader header = IfHeader.parse(request.getHeader("If"));
        if (!header.present()) {
            return header;
        }
        List<DavLock> live = live();
        for (IfHeader.Clause clause : header.clauses()) {
            String resource = clause.resource() == null ? path : resourcePath(request, clause.resource());
            if (clause.conditions().stream().allMatch(c -> holds(c, subject, resource, live))) {
                return header;
            }
        }
        throw new DoorException(412, "precondition failed: no list of the If header holds for " + path);
    }

    /** The locks of a resource that {@code DELETE} removed or {@code MOVE} moved away: they do not follow it. */
    public void dropped(String path) {
        try {
            table.dropAt(path);
        } catch (Exception e) {
            throw lockTableUnavailable(e);
        }
    }

    /** Every live lock in the cluster (one read of the table). */
    public List<DavLock> live() {
        try {
            return table.live();
        } catch (Exception e) {
            throw lockTableUnavailable(e);
        }
    }

    private boolean holds(IfHeader.Condition condition, GridSubject subject, String resource, List<DavLock> live) {
        boolean matches;
        if (condition.token() != null) {
            matches = live.stream().anyMatch(l -> l.token().equals(condition.token()) && l.covers(resource));
        } else {
            String etag = etagOf(subject, resource);
            matches = etag != null && etag.equals(condition.etag());
        }
        return matches != condition.not();
    }

    /** The ETag the door sends for {@code path} (the origin's), or null when there is none or nothing is there. */
    private String etagOf(GridSubject subject, String path) {
        try {
            NamespaceEntry entry = namespace.stat(subject, path);
            return entry.etag();
        } catch (DoorException e) {
            if (e.status() == 404) {
                return null;
            }
            throw e;
        }
    }

    /** A tagged list's resource ({@code http://door/x} or {@code /x}) as a namespace path; 400 if it is no URL. */
    private static String resourcePath(HttpServletRequest request, String tag) {
        try {
            URI uri = new URI(tag.strip());
            String raw = uri.getRawPath();
            if (raw == null || raw.isEmpty()) {
                throw new DoorException(400, "malformed If header: the resource tag " + tag + " has no path");
            }
            return DoorRequests.namespacePath(request, raw, "bad resource in If header");
        } catch (URISyntaxException e) {
            throw new DoorException(400, "malformed If header: the resource tag is not a URL");
        }
    }

    static DoorException lockTableUnavailable(Exception e) {
        return new DoorException(503, "the cluster's lock table cannot be read now (" + e.getClass().getSimpleName() + ")");
    }
}
