package org.gridcache.door.http;

import org.gridcache.door.exchange.Replies;
import org.gridcache.door.exchange.DoorException;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpFilter;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Enumeration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Supplier;
import org.gridcache.common.GridPath;
import org.gridcache.common.HttpMethods;
import org.gridcache.common.origin.OriginEntry;
import org.gridcache.common.security.GridSubject;
import org.gridcache.door.auth.AccessCheck;
import org.gridcache.door.auth.AuthzPolicy;
import org.gridcache.door.auth.SubjectResolver;
import org.gridcache.door.auth.macaroon.MacaroonRequests;
import org.gridcache.common.authz.Activity;
import org.gridcache.door.delegation.CredentialService;
import org.gridcache.door.delegation.DelegationService;
import org.gridcache.door.lock.DoorLocks;
import org.gridcache.door.namespace.Namespace;
import org.gridcache.door.namespace.MountPoint;
import org.gridcache.door.namespace.NamespaceEntry;
import org.gridcache.door.ops.DoorStats;
import org.gridcache.door.props.PropPatch;
import org.gridcache.door.read.FileReads;
import org.gridcache.door.webdav.HtmlListing;
import org.gridcache.door.webdav.ListingOrder;
import org.gridcache.door.webdav.PropfindRequest;
import org.gridcache.door.write.DoorWrites;
import org.gridcache.door.exchange.DoorRequests;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The door's front: every request passes here before Milton. It parses the path (400 for traversal tricks), keeps
 * {@code /.gridcache/} for the door's own services, hands writes to {@link DoorWrites} (proxied to the origin) and
 * PROPPATCH to {@link PropPatch} (dead properties, kept by the doors), LOCK/UNLOCK to {@link DoorLocks} (the
 * cluster's lock table; Milton CE has no handler for them), a macaroon request (POST) to {@link MacaroonRequests},
 * refuses other methods (405), answers OPTIONS, serves GET/HEAD itself (files: redirect, proxy or metadata; collections: an HTML listing; Milton's
 * redirect is a broken servlet forward and its Range handling is buggy) and resolves PROPFIND targets up front so
 * that origin failures become clean statuses. Only a checked PROPFIND reaches Milton. The subject it resolves goes
 * explicitly to every namespace lookup (ARCHITECTURE.md, "Flows").
 */
public final class DoorReadFilter extends HttpFilter {
    private static final long serialVersionUID = 1L;
    private static final Logger LOG = LoggerFactory.getLogger(DoorReadFilter.class);
    private static final Set<String> READ_METHODS = Set.of("OPTIONS", "GET", "HEAD", "PROPFIND");
    private final transient Namespace namespace;
    private final transient FileReads files;
    private final transient SubjectResolver subjects;
    private final transient Supplier<AuthzPolicy> policy;
    private final transient DelegationService delegation;
    private final transient CredentialService credentials;
    private final transient DoorServices services;
    private final transient DoorStats stats;
    private final transient DoorWrites writes;
    private final transient PropPatch propPatch;
    private final transient DoorLocks locks;
    private final transient MacaroonRequests macaroons;

    /** {@code delegation} and {@code credentials} are null on a door without TLS. */
    public DoorReadFilter(Namespace namespace, FileReads files, SubjectResolver subjects, Supplier<AuthzPolicy> policy,
                   DelegationService delegation, CredentialService credentials, DoorServices services, DoorStats stats,
                   DoorWrites writes, PropPatch propPatch, DoorLocks locks, MacaroonRequests macaroons) {
        this.namespace = namespace;
        this.files = files;
        this.subjects = subjects;
        this.policy = policy;
        this.delegation = delegation;
        this.credentials = credentials;
        this.services = services;
        this.stats = stats;
        this.writes = writes;
        this.propPatch = propPatch;
        this.locks = locks;
        this.macaroons = macaroons;
    }

    /**
     * Headers that decide what a request does (RFC 4918's and RFC 9110's singletons): at most one value of each. The
     * same value repeated is that value (RFC 9110 §5.3; curl scripts that add a header their defaults also set send
     * it twice).
     */
    static final List<String> SINGLE_HEADERS = List.of("Depth", "Destination", "Overwrite", "Lock-Token", "Timeout", "If",
            "Content-Type", "Range", "Authorization");

    private static boolean moreThanOne(Enumeration<String> values) {
        if (values == null || !values.hasMoreElements()) {
            return false;
        }
        String first = values.nextElement();
        while (values.hasMoreElements()) {
            if (!first.equals(values.nextElement())) {
                return true;
            }
        }
        return false;
    }

    @Override
    protected void doFilter(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws IOException, ServletException {
        String method = request.getMethod();
        String path = null;
        GridSubject subject = GridSubject.ANONYMOUS;
        boolean resolved = false;
        try {
            if (!HttpMethods.KNOWN.contains(method)) {
                // RFC 9110 §15.6.2: a method the server does not recognise is 501, one it knows but refuses here 405
                throw new DoorException(501, "method not implemented");
            }
            for (String single : SINGLE_HEADERS) {
                if (moreThanOne(request.getHeaders(single))) {
                    // one reading of the request must hold: a check on the first and an action on another never differ
                    throw new DoorException(400, single + " headers with different values");
                }
            }
            path = DoorRequests.namespacePath(request);
            subject = subjects.resolve(request);
            resolved = true;
            request.setAttribute(DoorRequests.SUBJECT_ATTRIBUTE, subject);
            if (GridPath.isUnder(path, DoorRequests.SERVICES)) {
                if ((DoorWrites.METHODS.contains(method) || DoorLocks.METHODS.contains(method) || method.equals("PROPPATCH"))
                        && !GridPath.isUnder(path, DelegationService.PATH)) {
                    throw new DoorException(405, method + " is not allowed on the door's own paths (" + DoorRequests.SERVICES + ")");
                }
                doorService(request, response, path, subject);
                return;
            }
            if (MacaroonRequests.applies(request)) {
                macaroons.handle(request, response, path, subject);
                return;
            }
            if (DoorWrites.METHODS.contains(method)) {
                writes.handle(request, response, path, subject);
                return;
            }
            if (method.equals("PROPPATCH")) {
                propPatch.handle(request, response, path, subject);
                return;
            }
            if (DoorLocks.METHODS.contains(method)) {
                locks.handle(request, response, path, subject);
                return;
            }
            if (!READ_METHODS.contains(method)) {
                throw new DoorException(405, method + " is not allowed at this door");
            }
            switch (method) {
                case "OPTIONS" -> options(response);
                case "PROPFIND" -> {
                    authorize(subject, path, "0".equals(request.getHeader("Depth")) ? Activity.READ_METADATA : Activity.LIST);
                    propfind(request, response, chain, path, subject);
                }
                default -> read(request, response, path, subject);
            }
        } catch (DoorException refused) {
            DoorException e = withVomsRefusal(request, refused);
            LOG.info("{} {} by {} -> {} {}", method, path != null ? path : "(bad path)", subject, e.status(), e.reason());
            if (e.status() == 401) {
                stats.authenticationFailure(authFailure(e, resolved, subject));
            }
            // refused before its body was read: Jetty closes the connection after the reply, so say so, or a client
            // may send its next request on it and see no answer
            BrowserRefusals.send(request, response, e, resolved && subject.anonymous(), hasUnreadBody(request));
        } catch (RuntimeException e) {
            LOG.error("{} {} -> 500: {}", method, path, e.toString(), e);
            Replies.failure(response, new DoorException(500, "internal error in the door (see its log)"));
        }
    }

    /**
     * A 401 or 403 of a client whose proxy's VOMS attributes were refused also says why: the refusal follows from
     * their absence (no delegation of those attributes, no right of that VO), and "delegate a proxy" alone misleads.
     */
    private static DoorException withVomsRefusal(HttpServletRequest request, DoorException e) {
        Object voms = request.getAttribute(SubjectResolver.VOMS_REFUSAL_ATTRIBUTE);
        if (voms == null || e.status() != 401 && e.status() != 403) {
            return e;
        }
        return new DoorException(e.status(), e.reason() + " (" + voms + ")", e.headers());
    }

    /** The fixed reason code of a 401 (its text names paths and origins, which must not become metric labels). */
    private static DoorStats.AuthFailure authFailure(DoorException e, boolean resolved, GridSubject subject) {
        if (!resolved) {
            return DoorStats.AuthFailure.CREDENTIAL_REFUSED;
        }
        if (e.headers().containsKey("X-Delegate-To")) {
            return DoorStats.AuthFailure.DELEGATION_REQUIRED;
        }
        return subject.anonymous() ? DoorStats.AuthFailure.NO_CREDENTIAL : DoorStats.AuthFailure.CREDENTIAL_REFUSED;
    }

    private static boolean hasUnreadBody(HttpServletRequest request) {
        return request.getContentLengthLong() > 0 || request.getHeader("Transfer-Encoding") != null;
    }

    /** Delegation and credential hand-off (on a TLS door), else health, metrics, status and the pools API. */
    private void doorService(HttpServletRequest request, HttpServletResponse response, String path, GridSubject subject)
            throws IOException {
        if (delegation != null && GridPath.isUnder(path, DelegationService.PATH)) {
            delegation.handle(request, response, path, subject);
            return;
        }
        if (credentials != null && path.equals(CredentialService.PATH)) {
            credentials.handle(request, response, subject);
            return;
        }
        services.serve(request, response, path);
    }

    private void authorize(GridSubject subject, String path, Activity activity) {
        AccessCheck.require(policy.get(), subject, path, activity);
    }

    private static void options(HttpServletResponse response) {
        response.setStatus(200);
        response.setHeader("DAV", "1, 2"); // class 2: LOCK and UNLOCK (DoorLocks)
        response.setHeader("Allow", DoorRequests.ALLOW);
        response.setHeader("MS-Author-Via", "DAV");
        response.setContentLength(0);
    }

    private void read(HttpServletRequest request, HttpServletResponse response, String path, GridSubject subject) throws IOException {
        authorize(subject, path, Activity.READ_METADATA); // before asking the origin anything
        NamespaceEntry entry = statForRead(request, path, subject);
        if (entry.collection()) {
            authorize(subject, path, Activity.LIST);
            listing(request, response, path, subject);
            return;
        }
                OriginEntry origin = namespace.originOf(path).orElseThrow(() -> DoorException.notFound(path));
        if (request.getMethod().equals("HEAD")) {
            // a stat, as every storage scope allows; its checksums are metadata too
            files.head(request, response, origin, entry, subject);
            return;
        }
        authorize(subject, path, Activity.DOWNLOAD);
        files.get(request, response, origin, entry, subject);
    }

    /**
     * The entry a GET or HEAD reads. A GET the policy refuses to download can only list a collection: when it may not
     * list either, or when the stat would need a delegation the subject lacks, it is the policy's 403, never a
     * request to delegate for a file the door would refuse anyway.
     */
    private NamespaceEntry statForRead(HttpServletRequest request, String path, GridSubject subject) {
        if (!request.getMethod().equals("GET") || AccessCheck.allows(policy.get(), subject, path, Activity.DOWNLOAD)) {
            return namespace.stat(subject, path);
        }
        if (!AccessCheck.allows(policy.get(), subject, path, Activity.LIST)) {
            authorize(subject, path, Activity.DOWNLOAD); // the refusal, with its reason
        }
        try {
            return namespace.stat(subject, path);
        } catch (DoorException e) {
            if (e.headers().containsKey(DoorException.DELEGATE_TO)) {
                authorize(subject, path, Activity.DOWNLOAD);
            }
            throw e;
        }
    }

    private void listing(HttpServletRequest request, HttpServletResponse response, String dir, GridSubject subject)
            throws IOException {
        List<NamespaceEntry> children = namespace.list(subject, dir);
        Map<String, MountPoint> mountsBelow = new HashMap<>();
        for (NamespaceEntry child : children) {
            namespace.mountPointAt(child.path()).ifPresent(m -> mountsBelow.put(child.path(), m));
        }
        Optional<MountPoint> servedBy = namespace.originOf(dir).flatMap(o -> namespace.mountPointAt(o.prefix()));
        ListingOrder order = ListingOrder.parse(request.getParameter("sort"), request.getParameter("order"));
        byte[] html = HtmlListing.render(dir, children, servedBy, mountsBelow, order).getBytes(StandardCharsets.UTF_8);
        response.setStatus(200);
        response.setContentType("text/html; charset=utf-8");
        response.setContentLength(html.length);
        if (request.getMethod().equals("GET")) {
            response.getOutputStream().write(html);
        }
    }

    /** Resolves the target (and for Depth 1 its listing) now, so Milton works from the cache and failures are ours. */
    private void propfind(HttpServletRequest request, HttpServletResponse response, FilterChain chain, String path,
                          GridSubject subject) throws IOException, ServletException {
        PropfindRequest checked = PropfindRequest.check(request);
        NamespaceEntry entry = namespace.stat(subject, path);
        if (entry.collection() && checked.depth() == 1) {
            namespace.list(subject, path);
        }
        chain.doFilter(checked, response);
    }
}
