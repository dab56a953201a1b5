package org.gridcache.door.write;

import org.gridcache.door.exchange.DoorRequests;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.io.InputStream;
import java.util.Optional;
import java.util.List;
import java.util.Set;
import java.util.function.Consumer;
import java.util.function.Supplier;
import org.gridcache.common.GridPath;
import org.gridcache.common.origin.OriginEntry;
import org.gridcache.common.checksum.ChecksumComputation;
import org.gridcache.common.checksum.UploadDigest;
import org.gridcache.common.security.GridSubject;
import org.gridcache.common.authz.Activity;
import org.gridcache.door.auth.AccessCheck;
import org.gridcache.door.auth.AuthzPolicy;
import org.gridcache.door.exchange.BodyDeadline;
import org.gridcache.door.exchange.DoorException;
import org.gridcache.door.lock.LockChecks;
import org.gridcache.door.lock.LockChecks.Reach;
import org.gridcache.door.namespace.Namespace;
import org.gridcache.door.namespace.NamespaceEntry;
import org.gridcache.door.namespace.OriginIdentities;
import org.gridcache.door.namespace.OriginIdentity;
import org.gridcache.zk.props.DeadPropertyStore;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * PUT, MKCOL, DELETE, MOVE and COPY of the namespace, proxied by the door to the origin that serves the path
 * ({@link OriginWriters}), as the identity the subject has there ({@link OriginIdentities}). The policy's
 * {@code write} right is needed on every path changed ({@code read} on a COPY's source). MOVE and COPY stay within one
 * origin: across two they are 502, not emulated by copy-then-delete (a failure halfway would leave both or neither
 * with no way to tell the client). An origin's root and the door's virtual collections are not written (403). After
 * every write that reached the origin, the door's cached listings and entries of the paths changed and their parents
 * are dropped for every identity, so this door shows the change at once, and the other doors are told
 * ({@code WriteNotices} in ZooKeeper) so that they drop theirs. A resource's dead properties follow it: moved,
 * copied (with the members of a collection, unless Depth 0) or deleted with it ({@link DeadPropertyStore}). Every path a write changes must pass the cluster's
 * locks first ({@link LockChecks}: 412 when its {@code If} header fails, 423 when another's lock is in the way); a
 * DELETE drops the locks of what it removed, a MOVE those of its source.
 */
public final class DoorWrites {
    /** The methods this class answers. */
    public static final Set<String> METHODS = Set.of("PUT", "MKCOL", "DELETE", "MOVE", "COPY");
    private static final Logger LOG = LoggerFactory.getLogger(DoorWrites.class);
    private final Namespace namespace;
    private final OriginWriters writers;
    private final OriginIdentities identities;
    private final Supplier<AuthzPolicy> policy;
    private final WriteTargets targets;
    private final DeadPropertyStore properties;
    private final LockChecks locks;
    private final PutRedirects redirects;
    private final ThirdPartyCopies copies;

    /**
     * The COPYs that are third-party copies (HTTP-TPC: a {@code Source} header, or a {@code Destination} on another
     * server), answered by {@code door.tpc}; every other COPY stays within the namespace.
     */
    public interface ThirdPartyCopies {
        /** Whether {@code request}, a COPY, is a third-party copy this handles. */
        boolean takes(HttpServletRequest request);

        /** Answers it; {@code writes} checks a pull's target as a PUT's ({@link #requirePuttable}). */
        void handle(HttpServletRequest request, HttpServletResponse response, String path, GridSubject subject,
                    DoorWrites writes) throws IOException;
    }

    /**
     * {@code notices}: told the paths of every write that reached an origin (the other doors' notice, see WriteNotices);
     * {@code properties}: the dead properties, which follow their resource when it is moved, copied or deleted;
     * {@code locks}: the cluster's locks every write must pass; {@code redirects}: which PUTs go to a pool (null: the
     * door proxies every PUT).
     */
    public DoorWrites(Namespace namespace, OriginWriters writers, OriginIdentities identities, Supplier<AuthzPolicy> policy,
                      Consumer<List<String>> notices, DeadPropertyStore properties, LockChecks locks, PutRedirects redirects) {
        this(namespace, writers, identities, policy, notices, properties, locks, redirects, null);
    }

    /** As above; {@code copies}: the third-party copies (null: a COPY to another server is 502). */
    public DoorWrites(Namespace namespace, OriginWriters writers, OriginIdentities identities, Supplier<AuthzPolicy> policy,
                      Consumer<List<String>> notices, DeadPropertyStore properties, LockChecks locks, PutRedirects redirects,
                      ThirdPartyCopies copies) {
        this.copies = copies;
        this.redirects = redirects;
        this.namespace = namespace;
        this.writers = writers;
        this.identities = identities;
        this.policy = policy;
        this.targets = new WriteTargets(namespace, policy, locks, notices);
        this.properties = properties;
        this.locks = locks;
    }

    /**
     * The empty file of a LOCK on an unmapped URL (RFC 4918 §7.3), made at the origin as a PUT of nothing would be,
     * with the same rights and checks; the LOCK that asks has just been granted, so no lock stands in its way.
     */
    public void createEmpty(GridSubject subject, String path) {
        AccessCheck.require(policy.get(), subject, path, Activity.UPLOAD);
        OriginEntry origin = targets.writable(path, "PUT");
        targets.requireParentCollection(subject, path);
        OriginIdentity as = identities.of(subject, origin);
        try {
            writers.of(origin).put(subject, as, origin, path, InputStream.nullInputStream(), 0, null);
        } finally {
            targets.changed(List.of(path));
        }
        LOG.info("LOCK of unmapped {} by {}: created empty", path, subject);
    }

    /** Answers the write {@code request} on {@code path} (normalised) for {@code subject}. */
    public void handle(HttpServletRequest request, HttpServletResponse response, String path, GridSubject subject) throws IOException {
        String method = request.getMethod();
        if (WriteHeaders.hasFragment(request)) {
            // a client that sends "#…" means another resource than the one the fragment-less path names: never write that
            throw new DoorException(400, "a request URI with a fragment (#) names no resource to " + method);
        }
        if (method.equals("PUT") && request.getHeader("Content-Range") != null) {
            // RFC 9110 §14.5: a partial PUT would be stored as the whole file; a server that takes PUT must say 400
            throw new DoorException(400, "a PUT with Content-Range (a partial upload) is not supported: send the whole file");
        }
        if (method.equals("COPY") && copies != null && copies.takes(request)) {
            copies.handle(request, response, path, subject, this);
            return;
        }
        AccessCheck.require(policy.get(), subject, path, activityOn(method));
        OriginEntry origin = targets.writable(path, method);
        // a PUT that goes to a pool needs no writer here: pools write origins the door cannot (yet)
        boolean toPool = method.equals("PUT") && redirects != null && redirects.applies(request);
        OriginWriter writer = toPool ? null : writers.of(origin);
        OriginWriter.Written written;
        switch (method) {
            case "PUT" -> {
                NamespaceEntry existing = targets.requireFileTarget(request, subject, path);
                UploadDigest digest = WriteHeaders.uploadDigest(request);
                OriginIdentity as = identities.of(subject, origin);
                Optional<String> pool = redirects == null ? Optional.empty() : redirects.location(request, subject, origin, path);
                if (pool.isPresent()) {
                    redirect(response, pool.get(), path, subject);
                    // the pools drop their copies now, before the pool that takes the upload keeps the new one
                    targets.changed(List.of(path));
                    return;
                }
                written = put(request, subject, as, origin, writer != null ? writer : writers.of(origin), path, existing != null, digest);
            }
            case "MKCOL" -> {
                if (request.getContentLengthLong() > 0 || request.getHeader("Transfer-Encoding") != null) {
                    throw new DoorException(415, "MKCOL with a body is not supported");
                }
                targets.requireParentCollection(subject, path);
                locks.requireWritable(subject, path, Reach.NEW_MEMBER, request);
                OriginIdentity as = identities.of(subject, origin);
                try {
                    written = writer.mkcol(subject, as, origin, path);
                } finally {
                    targets.changed(List.of(path));
                }
            }
            case "DELETE" -> {
                NamespaceEntry entry = namespace.stat(subject, path);
                locks.requireWritable(subject, path, Reach.TREE, request);
                OriginIdentity as = identities.of(subject, origin);
                try {
                    written = writer.delete(subject, as, origin, path, entry.collection());
                    followProperties(method, path, () -> properties.delete(path));
                } finally {
                    targets.changed(List.of(path));
                }
                locks.dropped(path);
            }
            default -> written = moveOrCopy(request, method, path, subject, origin, writer);
        }
        LOG.info("{} {} by {} -> {}", method, path, subject, written.status());
        answer(response, written);
    }

    /**
     * What a write method does to its request path: MOVE removes the source (a create-only token may not rename what
     * it could not delete), COPY reads it.
     */
    private static Activity activityOn(String method) {
        return switch (method) {
            case "PUT" -> Activity.UPLOAD;
            case "MKCOL" -> Activity.MANAGE;
            case "COPY" -> Activity.DOWNLOAD;
            default -> Activity.DELETE; // DELETE, MOVE
        };
    }

    /**
     * What a PUT of {@code path} must pass before any byte is written, for a write that is not a PUT (a third-party
     * copy's pull): the {@code write} right, an origin that takes writes there, a parent collection, no collection in
     * the way, the locks, and no file in the way when the request says {@code Overwrite: F} (412). Returns the origin.
     */
    public OriginEntry requirePuttable(HttpServletRequest request, GridSubject subject, String path) {
        AccessCheck.require(policy.get(), subject, path, Activity.UPLOAD);
        OriginEntry origin = targets.writable(path, "PUT");
        if (targets.requireFileTarget(request, subject, path) != null && !WriteHeaders.overwrite(request)) {
            throw new DoorException(412, "precondition failed: " + path + " exists and Overwrite is F");
        }
        return origin;
    }

    /**
     * {@code path} is being written by a pool (a third-party copy's pull): the cached views of it are dropped here and
     * at the other doors, and the pools drop their copies, as for a redirected PUT.
     */
    public void writingElsewhere(String path) {
        targets.changed(List.of(path));
    }

    /**
     * The door's own PUT: the body streamed to the origin, checksummed on the way when the client named a checksum;
     * a mismatch removes what the origin received (a DELETE after the upload: no origin takes a checksum with a PUT)
     * and answers 400.
     */
    private OriginWriter.Written put(HttpServletRequest request, GridSubject subject, OriginIdentity as, OriginEntry origin,
                                     OriginWriter writer, String path, boolean replaced, UploadDigest digest) throws IOException {
        ChecksumComputation computation = digest.isEmpty() ? null : digest.computation(java.util.Set.of());
        InputStream timed = new BodyDeadline(request.getInputStream()); // a dripping body is cut (408)
        InputStream body = computation == null ? timed : new ChecksummedBody(timed, computation);
        try {
            writer.put(subject, as, origin, path, body, request.getContentLengthLong(), request.getContentType());
            String mismatch = computation == null ? null : digest.mismatch(computation.finish());
            if (mismatch != null) {
                removeBadUpload(subject, as, origin, writer, path);
                throw new DoorException(400, mismatch);
            }
            // created (201) or replaced (204) as the door saw the target: origins differ (mod_gridsite: 200)
            return OriginWriter.Written.createdOrReplaced(replaced);
        } finally {
            targets.changed(List.of(path));
        }
    }

    private static void removeBadUpload(GridSubject subject, OriginIdentity as, OriginEntry origin, OriginWriter writer, String path) {
        try {
            writer.delete(subject, as, origin, path, false);
        } catch (DoorException e) {
            LOG.warn("PUT {} by {}: checksum mismatch, and the origin's copy could not be removed: {} {}", path, subject,
                    e.status(), e.getMessage());
        }
    }

    /** 307 keeps the method and body (RFC 9110 15.4.8); a 302 would let a client turn the PUT into a GET. */
    private static void redirect(HttpServletResponse response, String location, String path, GridSubject subject)
            throws IOException {
        response.setStatus(307);
        response.setHeader("Location", location);
        response.setHeader("Cache-Control", "no-store"); // the ticket in it expires soon
        byte[] body = PutRedirects.NOT_STORED_YET.getBytes(java.nio.charset.StandardCharsets.UTF_8);
        response.setContentType("text/plain; charset=UTF-8");
        response.setContentLength(body.length);
        response.getOutputStream().write(body);
        LOG.info("PUT {} by {} -> 307 to pool {}", path, subject, location.substring(0, location.indexOf('?')));
    }

    private OriginWriter.Written moveOrCopy(HttpServletRequest request, String method, String path, GridSubject subject,
                                            OriginEntry origin, OriginWriter writer) {
        String to = Destination.pathOf(request);
        boolean overwrite = WriteHeaders.overwrite(request);
        boolean deep = WriteHeaders.depth(request, method);
        if (GridPath.isUnder(to, DoorRequests.SERVICES)) {
            throw new DoorException(403, "the door's own paths (" + DoorRequests.SERVICES + ") are not written");
        }
        if (to.equals(path)) {
            throw new DoorException(403, method + " onto itself: source and destination are both " + path);
        }
        AccessCheck.require(policy.get(), subject, to, Activity.UPLOAD); // the source was checked in handle
        OriginEntry target = namespace.originOf(to).orElseThrow(() ->
                new DoorException(403, "no origin serves " + to + ": nothing can be written there"));
        if (!target.name().equals(origin.name())) {
            throw DoorException.badGateway(method + " across origins is not supported (" + path + " is in origin " + origin.name()
                    + ", " + to + " in origin " + target.name() + ")");
        }
        targets.writable(to, method);
        if (GridPath.isUnder(to, path)) {
            throw new DoorException(403, method + " of " + path + " into itself (" + to + ")");
        }
        NamespaceEntry source = namespace.stat(subject, path);
        targets.requireParentCollection(subject, to);
        NamespaceEntry existing = targets.existing(subject, to);
        if (existing != null && overwrite) {
            AccessCheck.require(policy.get(), subject, to, Activity.DELETE); // what is replaced is removed
        }
        if (method.equals("MOVE")) {
            locks.requireWritable(subject, path, Reach.TREE, request);
        }
        locks.requireWritable(subject, to, Reach.TREE, request);
        OriginIdentity as = identities.of(subject, origin);
        try {
            if (existing != null && overwrite && existing.collection() != source.collection()) {
                // Overwrite: T deletes the destination first (RFC 4918, 9.8.4); nginx refuses a file over a collection
                writer.delete(subject, as, origin, to, existing.collection());
            }
            OriginWriter.Written written = method.equals("MOVE")
                    ? writer.move(subject, as, origin, path, to, source.collection(), overwrite)
                    : writer.copy(subject, as, origin, path, to, source.collection(), overwrite, deep);
            followProperties(method, path, method.equals("MOVE") ? () -> properties.move(path, to, subject.name())
                    : () -> properties.copy(path, to, deep, subject.name()));
            if (method.equals("MOVE")) {
                locks.dropped(path);
            }
            // created (201) or replaced (204) as the door saw the destination: origins differ (nginx: always 204)
            if (written.multistatus() != null) {
                return written;
            }
            return OriginWriter.Written.createdOrReplaced(existing != null);
        } finally {
            targets.changed(method.equals("MOVE") ? List.of(path, to) : List.of(to));
        }
    }

    /** A change of the dead properties that a write at the origin made necessary. */
    @FunctionalInterface
    private interface PropertyChange {
        void run() throws Exception;
    }

    /**
     * Applies {@code change} to the dead properties after the origin did {@code method}: the write stands whatever
     * happens here (it cannot be undone at the origin), so a failure is logged, not answered.
     */
    private static void followProperties(String method, String path, PropertyChange change) {
        try {
            change.run();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (Exception e) {
            LOG.warn("{} {}: the dead properties did not follow: {}", method, path, e.toString());
        }
    }

    private static void answer(HttpServletResponse response, OriginWriter.Written written) throws IOException {
        response.setStatus(written.status());
        if (written.multistatus() != null) {
            response.setContentType("application/xml; charset=utf-8");
            response.setContentLength(written.multistatus().length);
            response.getOutputStream().write(written.multistatus());
        } else {
            response.setContentLength(0);
        }
    }
}
