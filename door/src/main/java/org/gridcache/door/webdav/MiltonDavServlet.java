package org.gridcache.door.webdav;

import io.milton.http.HttpManager;
import io.milton.servlet.MiltonServlet;
import io.milton.servlet.ServletRequest;
import io.milton.servlet.ServletResponse;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.util.List;
import java.util.function.Function;
import java.util.function.Supplier;
import org.gridcache.zk.lock.DavLock;
import org.gridcache.door.exchange.DoorException;
import org.gridcache.door.exchange.Replies;
import org.gridcache.door.namespace.Namespace;
import org.gridcache.zk.props.DeadProperty;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Hands a request to Milton's {@link HttpManager}, as {@link MiltonServlet} does, but with a manager built in code
 * around this door's namespace (Milton's own servlet instantiates its factory reflectively, one per JVM).
 */
public final class MiltonDavServlet extends HttpServlet {
    private static final long serialVersionUID = 1L;
    private static final Logger LOG = LoggerFactory.getLogger(MiltonDavServlet.class);
    private final transient HttpManager manager;

    private MiltonDavServlet(HttpManager manager) {
        this.manager = manager;
    }

    /**
     * Milton over {@code namespace}, for the PROPFINDs the filter let through: dCache's {@code Checksums} property
     * answered by {@code checksums}, the dead properties of each path from {@code dead}, RFC 4331 quota of
     * collections from {@code quota} (empty: the origin does not say) and {@code lockdiscovery} from {@code liveLocks}
     * (every live lock of the cluster).
     */
    public static MiltonDavServlet over(Namespace namespace, Checksums checksums, Function<String, List<DeadProperty>> dead,
                                        QuotaLookup quota, Supplier<List<DavLock>> liveLocks) {
        return new MiltonDavServlet(DoorHttpManagerBuilder.build(new DoorResourceFactory(namespace),
                List.of(new ChecksumProperty(checksums::of), new QuotaProperties(quota::of), new DeadPropertySource(dead),
                        new LockProperties(liveLocks))));
    }

    /** The quota of a collection (as its origin showed it to the request's subject); empty when the origin does not say. */
    @FunctionalInterface
    public interface QuotaLookup {
        java.util.Optional<org.gridcache.door.namespace.Quota> of(org.gridcache.door.namespace.NamespaceEntry collection);
    }

    /** A file's checksums as far as a pool holds them (NONE when none does). */
    @FunctionalInterface
    public interface Checksums {
        org.gridcache.common.checksum.Checksums of(org.gridcache.common.security.GridSubject subject, String path,
                                                   org.gridcache.door.namespace.NamespaceEntry file);
    }

    @Override
    protected void service(HttpServletRequest request, HttpServletResponse response) throws IOException {
        MiltonServlet.setThreadlocals(request, response);
        try {
            manager.process(new ServletRequest(request, getServletContext()), new ServletResponse(response));
        } catch (DoorException e) {
            // an origin failed between the filter's check and Milton's walk (the cache expired meanwhile)
            LOG.info("{} {} -> {} {}", request.getMethod(), request.getRequestURI(), e.status(), e.reason());
            Replies.failure(response, e);
        } finally {
            MiltonServlet.clearThreadlocals();
        }
        response.flushBuffer();
    }
}
