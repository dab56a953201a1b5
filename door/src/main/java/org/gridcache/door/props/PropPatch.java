package org.gridcache.door.props;

import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import org.gridcache.common.security.GridSubject;
import org.gridcache.common.authz.Activity;
import org.gridcache.door.auth.AccessCheck;
import org.gridcache.door.auth.AuthzPolicy;
import org.gridcache.door.exchange.DoorException;
import org.gridcache.door.exchange.RequestBodies;
import org.gridcache.door.lock.LockChecks;
import org.gridcache.door.namespace.Namespace;
import org.gridcache.zk.props.DeadProperty;
import org.gridcache.zk.props.DeadPropertyStore;
import org.gridcache.zk.props.PropertyLimitException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * PROPPATCH, answered by the door rather than Milton: Milton CE applies a body's sets and removes out of document
 * order, answers the removal of an absent property with 404 and a malformed body with 500, and its errors cannot be
 * the door's; and no origin kind stores dead properties, so they go to the cluster's {@link DeadPropertyStore}.
 * Needs the {@code write} right and an existing target (404). All or nothing (RFC 4918, 9.2): a property of the
 * {@code DAV:} namespace (live or reserved, every one of them the protocol's) or dCache's {@code Checksums} is 403,
 * one larger than the store keeps (per property, resource, subject or cluster) 507, and then every other instruction
 * is 424 and nothing changes.
 */
public final class PropPatch {
    private static final int MAX_BODY = 1 << 20;
    private static final Logger LOG = LoggerFactory.getLogger(PropPatch.class);
    private static final String DCACHE = "http://www.dcache.org/2013/webdav";
    private final Namespace namespace;
    private final Supplier<AuthzPolicy> policy;
    private final DeadPropertyStore store;
    private final LockChecks locks;

    /** {@code locks}: a PROPPATCH is a write, refused (423) when another's lock covers its target. */
    public PropPatch(Namespace namespace, Supplier<AuthzPolicy> policy, DeadPropertyStore store, LockChecks locks) {
        this.namespace = namespace;
        this.policy = policy;
        this.locks = locks;
        this.store = store;
    }

    /** Answers the PROPPATCH {@code request} of {@code path} (normalised) for {@code subject}. */
    public void handle(HttpServletRequest request, HttpServletResponse response, String path, GridSubject subject)
            throws IOException {
        AccessCheck.require(policy.get(), subject, path, Activity.UPDATE_METADATA);
        namespace.stat(subject, path); // 404 when there is nothing to hang properties on
        locks.requireWritable(subject, path, request);
        List<PropertyUpdate.Operation> operations = PropertyUpdate.parse(RequestBodies.read(request, MAX_BODY, "PROPPATCH"));
        Map<PropertyUpdate.Operation, Integer> statuses = new LinkedHashMap<>();
        boolean refused = false;
        for (PropertyUpdate.Operation op : operations) {
            int status = 200;
            if (isProtected(op.namespace(), op.name())) {
                status = 403;
            } else if (op.set() && op.xml().length() > DeadPropertyStore.MAX_PROPERTY) {
                status = 507;
            }
            refused |= status != 200;
            statuses.put(op, status);
        }
        if (!refused) {
            try {
                store.update(path, current -> apply(current, operations, subject.name()));
            } catch (PropertyLimitException e) {
                LOG.info("PROPPATCH {} by {}: {}", path, subject, e.getMessage());
                operations.forEach(op -> statuses.put(op, op.set() ? 507 : 200));
                refused = true;
            } catch (IOException | RuntimeException e) {
                throw e;
            } catch (Exception e) {
                LOG.warn("PROPPATCH {}: the property store failed: {}", path, e.toString());
                throw new DoorException(503, "the cluster's property store (ZooKeeper) is unavailable");
            }
        }
        if (refused) {
            statuses.replaceAll((op, status) -> status == 200 ? 424 : status);
        }
        LOG.info("PROPPATCH {} by {} -> {}", path, subject, refused ? "refused" : "applied");
        multistatus(response, request.getRequestURI(), statuses);
    }

    /** Whether {@code {namespace}name} belongs to the protocol or the door, never to a client. */
    static boolean isProtected(String namespace, String name) {
        return namespace.equals("DAV:") || namespace.equals(DCACHE) && name.equals("Checksums");
    }

    /**
     * {@code current} after {@code operations} in order: a set replaces in place or appends (charged to {@code by}),
     * a remove of nothing is fine.
     */
    static List<DeadProperty> apply(List<DeadProperty> current, List<PropertyUpdate.Operation> operations, String by) {
        List<DeadProperty> next = new ArrayList<>(current);
        for (PropertyUpdate.Operation op : operations) {
            int at = -1;
            for (int i = 0; i < next.size(); i++) {
                if (next.get(i).named(op.namespace(), op.name())) {
                    at = i;
                }
            }
            if (op.set()) {
                DeadProperty property = new DeadProperty(op.namespace(), op.name(), op.xml(), by);
                if (at >= 0) {
                    next.set(at, property);
                } else {
                    next.add(property);
                }
            } else if (at >= 0) {
                next.remove(at);
            }
        }
        return next;
    }

    private static void multistatus(HttpServletResponse response, String href, Map<PropertyUpdate.Operation, Integer> statuses)
            throws IOException {
        StringBuilder xml = new StringBuilder(512).append("<?xml version=\"1.0\" encoding=\"utf-8\"?>\n")
                .append("<D:multistatus xmlns:D=\"DAV:\"><D:response><D:href>").append(PropertyXml.escape(href, false))
                .append("</D:href>");
        Map<Integer, StringBuilder> byStatus = new LinkedHashMap<>();
        statuses.forEach((op, status) -> byStatus.computeIfAbsent(status, s -> new StringBuilder())
                .append(PropertyXml.name(op.namespace(), op.name())));
        byStatus.forEach((status, names) -> xml.append("<D:propstat><D:prop>").append(names).append("</D:prop><D:status>HTTP/1.1 ")
                .append(status).append(' ').append(reason(status)).append("</D:status></D:propstat>"));
        xml.append("</D:response></D:multistatus>\n");
        byte[] bytes = xml.toString().getBytes(StandardCharsets.UTF_8);
        response.setStatus(207);
        response.setContentType("application/xml; charset=utf-8");
        response.setContentLength(bytes.length);
        response.getOutputStream().write(bytes);
    }

    private static String reason(int status) {
        return switch (status) {
            case 200 -> "OK";
            case 403 -> "Forbidden";
            case 424 -> "Failed Dependency";
            case 507 -> "Insufficient Storage";
            default -> "";
        };
    }
}
