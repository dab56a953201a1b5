package org.gridcache.door.lock;

import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Optional;
import java.util.Set;
import org.gridcache.common.UrlCodec;
import org.gridcache.common.security.GridSubject;
import org.gridcache.common.authz.Activity;
import org.gridcache.door.auth.AccessCheck;
import org.gridcache.door.auth.AuthzPolicy;
import org.gridcache.door.exchange.DoorException;
import org.gridcache.door.exchange.RequestBodies;
import org.gridcache.door.namespace.Namespace;
import org.gridcache.zk.lock.DavLock;
import org.gridcache.zk.lock.LockConflictException;
import org.gridcache.zk.lock.LockLimitException;
import org.gridcache.zk.lock.LockOwnerException;
import org.gridcache.zk.lock.LockTable;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * LOCK and UNLOCK (RFC 4918 §9.10, §9.11; Milton CE has no handler for them), over the cluster's lock table, so a
 * lock taken at one door holds at all. A LOCK needs the policy's {@code write} right. A LOCK with a body asks for a
 * new lock (exclusive or shared, Depth 0 or infinity); on an unmapped URL it also makes an empty file at the origin
 * (§7.3, 201). A LOCK without a body refreshes the lock its {@code If} header names. The {@code Timeout} asked for is
 * capped at {@link #MAX_TIMEOUT}: a desktop that asks for {@code Infinite} and disappears must not hold a path for
 * ever. UNLOCK removes the lock its {@code Lock-Token} names, if the lock covers the URL (409 otherwise) and was taken
 * by the same subject (403 otherwise).
 */
public final class DoorLocks {
    /** The methods this class answers. */
    public static final Set<String> METHODS = Set.of("LOCK", "UNLOCK");
    /** A LOCK with no {@code Timeout} header. */
    public static final Duration DEFAULT_TIMEOUT = Duration.ofMinutes(10);
    /** The longest lock granted, whatever the client asks: clients refresh (davfs2, gvfs and Windows do). */
    public static final Duration MAX_TIMEOUT = Duration.ofHours(1);
    private static final Logger LOG = LoggerFactory.getLogger(DoorLocks.class);
    private final LockTable table;
    private final LockChecks checks;
    private final Namespace namespace;
    private final Supplier<AuthzPolicy> policy;
    private final EmptyFiles emptyFiles;

    /** Makes the empty file of a LOCK on an unmapped URL, as a PUT of nothing would (rights, origin, parent checked). */
    @FunctionalInterface
    public interface EmptyFiles {
        void create(GridSubject subject, String path);
    }

    public DoorLocks(LockTable table, LockChecks checks, Namespace namespace, Supplier<AuthzPolicy> policy, EmptyFiles emptyFiles) {
        this.table = table;
        this.checks = checks;
        this.namespace = namespace;
        this.policy = policy;
        this.emptyFiles = emptyFiles;
    }

    /** Answers the LOCK or UNLOCK {@code request} on {@code path} (normalised) for {@code subject}. */
    public void handle(HttpServletRequest request, HttpServletResponse response, String path, GridSubject subject) throws IOException {
        AccessCheck.require(policy.get(), subject, path, Activity.UPLOAD);
        try {
            if (request.getMethod().equals("UNLOCK")) {
                unlock(request, response, path, subject);
            } else {
                lock(request, response, path, subject);
            }
        } catch (LockConflictException e) {
            throw new DoorException(423, "locked: " + e.getMessage());
        } catch (LockOwnerException e) {
            throw new DoorException(403, "forbidden: " + e.getMessage());
        } catch (LockLimitException e) {
            throw new DoorException(507, "insufficient storage: " + e.getMessage());
        } catch (DoorException | IOException e) {
            throw e;
        } catch (Exception e) {
            throw LockChecks.lockTableUnavailable(e);
        }
    }

    private void lock(HttpServletRequest request, HttpServletResponse response, String path, GridSubject subject) throws Exception {
        Optional<LockRequest> asked = LockRequests.parse(body(request));
        Duration timeout = LockTimeouts.parse(request.getHeader("Timeout"), DEFAULT_TIMEOUT, MAX_TIMEOUT);
        if (asked.isEmpty()) {
            refresh(request, response, path, subject, timeout);
            return;
        }
        boolean infinite = depthInfinity(request);
        // a LOCK on a path within a lock of its own subject that submits the token still conflicts if exclusive: as mod_dav
        checks.requireConditions(subject, path, request);
        boolean exists = exists(subject, path);
        DavLock lock = table.lock(path, asked.get().exclusive(), infinite, asked.get().ownerXml(), subject.name(), timeout);
        if (!exists) {
            try {
                emptyFiles.create(subject, path);
            } catch (RuntimeException e) {
                // the lock was for a file that could not be made: it must not outlive the failure
                table.unlock(lock.token(), subject.name());
                throw e;
            }
        }
        LOG.info("LOCK {} by {} -> {} {} depth {} for {} s", path, subject, lock.token(), lock.exclusive() ? "exclusive" : "shared",
                infinite ? "infinity" : "0", timeout.toSeconds());
        answer(request, response, exists ? 200 : 201, lock);
    }

    private void refresh(HttpServletRequest request, HttpServletResponse response, String path, GridSubject subject,
                         Duration timeout) throws Exception {
        IfHeader conditions = IfHeader.parse(request.getHeader("If"));
        if (!conditions.present()) {
            throw new DoorException(400, "a LOCK without a body refreshes a lock, and needs its token in an If header");
        }
        for (String token : conditions.submittedTokens()) {
            boolean covers = checks.live().stream().anyMatch(l -> l.token().equals(token) && l.covers(path));
            Optional<DavLock> refreshed = covers ? table.refresh(token, subject.name(), timeout) : Optional.empty();
            if (refreshed.isPresent()) {
                LOG.info("LOCK refresh {} by {} -> {} for {} s", path, subject, token, timeout.toSeconds());
                answer(request, response, 200, refreshed.get());
                return;
            }
        }
        throw new DoorException(412, "precondition failed: the If header names no live lock on " + path + " to refresh");
    }

    private void unlock(HttpServletRequest request, HttpServletResponse response, String path, GridSubject subject) throws Exception {
        String header = request.getHeader("Lock-Token");
        if (header == null || !header.strip().startsWith("<") || !header.strip().endsWith(">")) {
            throw new DoorException(400, "UNLOCK needs a Lock-Token header: <opaquelocktoken:…>");
        }
        String token = header.strip().substring(1, header.strip().length() - 1).strip();
        boolean covers = checks.live().stream().anyMatch(l -> l.token().equals(token) && l.covers(path));
        if (!covers || !table.unlock(token, subject.name())) {
            throw new DoorException(409, "conflict: no live lock of that token covers " + path);
        }
        LOG.info("UNLOCK {} by {} -> {}", path, subject, token);
        response.setStatus(204);
    }

    /** Depth: infinity (the default) or 0; Depth 1 means nothing for a lock (RFC 4918 §9.10.3). */
    private static boolean depthInfinity(HttpServletRequest request) {
        String depth = request.getHeader("Depth");
        if (depth == null || depth.strip().equalsIgnoreCase("infinity")) {
            return true;
        }
        if (depth.strip().equals("0")) {
            return false;
        }
        throw new DoorException(400, "bad Depth for LOCK (0 or infinity)");
    }

    private boolean exists(GridSubject subject, String path) {
        try {
            namespace.stat(subject, path);
            return true;
        } catch (DoorException e) {
            if (e.status() == 404) {
                return false;
            }
            throw e;
        }
    }

    /** The body, at most {@link LockRequests#MAX_BODY} bytes (413 beyond, before reading more). */
    private static byte[] body(HttpServletRequest request) throws IOException {
        return RequestBodies.read(request, LockRequests.MAX_BODY, "LOCK");
    }

    private static void answer(HttpServletRequest request, HttpServletResponse response, int status, DavLock lock) throws IOException {
        byte[] xml = LockDiscovery.lockAnswer(lock, hrefOf(request, lock.path())).getBytes(StandardCharsets.UTF_8);
        response.setStatus(status);
        response.setHeader("Lock-Token", "<" + lock.token() + ">");
        response.setHeader("Timeout", LockTimeouts.header(lock.timeoutSeconds()));
        response.setContentType("application/xml; charset=utf-8");
        response.setContentLength(xml.length);
        response.getOutputStream().write(xml);
    }

    /** The URL path of a namespace path at this door, as lockroot shows it. */
    public static String hrefOf(HttpServletRequest request, String path) {
        String context = request.getContextPath();
        return (context == null ? "" : context) + UrlCodec.encodePath(path);
    }
}
