package org.gridcache.door.http;

import org.gridcache.door.exchange.DoorRequests;
import org.gridcache.door.exchange.DoorException;
import jakarta.servlet.http.HttpServletRequest;
import org.gridcache.common.settings.ClusterSettings.Keys;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.function.Supplier;
import org.gridcache.common.settings.ClusterSettings;
import org.gridcache.common.Json;
import org.gridcache.common.cluster.PoolRecord;
import org.gridcache.common.cluster.TransferList;
import org.gridcache.door.ops.DoorOperations;
import org.gridcache.door.ops.StatusPage;
import org.gridcache.door.ops.StorageReport;
import org.gridcache.door.webdav.Stylesheet;
import org.gridcache.zk.PoolDirectory;

/**
 * The door's own services under {@code /.gridcache/} (ARCHITECTURE.md, "Parts"), never looked up in an origin: {@code health},
 * {@code metrics} (Prometheus text), {@code status} (an HTML page that refreshes itself) and
 * {@code api/v1/pools} (the live pools as JSON, nearest first for the caller), {@code api/v1/transfers} (the
 * transfers in progress at every pool, {@link TransferList}), {@code api/v1/srr} (WLCG Storage Resource Reporting,
 * {@link StorageReport}) and {@code style.css} (the pages' {@link Stylesheet}).
 */
public final class DoorServices {
    static final String PREFIX = DoorRequests.SERVICES;
    /** WLCG Storage Resource Reporting, where dCache's frontend has it ({@code /api/v1/srr}). */
    public static final String SRR = PREFIX + "/api/v1/srr";
    /** The transfers in progress, as the status page lists them. */
    static final String TRANSFERS = PREFIX + "/api/v1/transfers";
    static final String PROMETHEUS_TEXT = "text/plain; version=0.0.4; charset=utf-8";
    private final DoorOperations operations;
    private final PoolDirectory pools;
    private final Supplier<ClusterSettings> settings;
    private final StorageReport storage;

    public DoorServices(DoorOperations operations, PoolDirectory pools, Supplier<ClusterSettings> settings,
                        StorageReport storage) {
        this.operations = operations;
        this.pools = pools;
        this.settings = settings;
        this.storage = storage;
    }

    void serve(HttpServletRequest request, HttpServletResponse response, String path) throws IOException {
        String type = switch (path) {
            case PREFIX + "/health" -> "text/plain; charset=utf-8";
            case PREFIX + "/metrics" -> PROMETHEUS_TEXT;
            case PREFIX + "/status" -> "text/html; charset=utf-8";
            case PREFIX + "/api/v1/pools", TRANSFERS, SRR -> "application/json";
            case Stylesheet.PATH -> Stylesheet.CONTENT_TYPE;
            default -> throw new DoorException(404, "no such door service: " + path + " (try " + PREFIX + "/status, "
                    + PREFIX + "/metrics, " + PREFIX + "/api/v1/pools, " + TRANSFERS + " or " + SRR + ")");
        };
        String method = request.getMethod();
        if (!method.equals("GET") && !method.equals("HEAD")) {
            throw new DoorException(405, method + " is not allowed on " + path + " (GET or HEAD)");
        }
        if (path.equals(Stylesheet.PATH)) {
            stylesheet(request, response);
            return;
        }
        String body = switch (path) {
            case PREFIX + "/health" -> "ok\n";
            case PREFIX + "/metrics" -> operations.scrape();
            case PREFIX + "/status" -> StatusPage.render(operations, pools.live(), operations.selectableCount(), settings.get());
            case SRR -> Json.string(storage.of(pools.live(), settings.get().get(Keys.SRR_SHARES),
                    System.currentTimeMillis() / 1000)) + "\n";
            case TRANSFERS -> Json.string(TransferList.of(pools.live(), System.currentTimeMillis())) + "\n";
            default -> Json.string(poolsFor(request.getRemoteAddr())) + "\n";
        };
        send(request, response, type, "no-store", body.getBytes(StandardCharsets.UTF_8));
    }

    private static void send(HttpServletRequest request, HttpServletResponse response, String type, String cacheControl,
                             byte[] bytes) throws IOException {
        response.setStatus(200);
        response.setContentType(type);
        response.setHeader("Cache-Control", cacheControl);
        response.setContentLength(bytes.length);
        if (request.getMethod().equals("GET")) {
            response.getOutputStream().write(bytes);
        }
    }

    /** The pages' stylesheet: cacheable, revalidated by its entity tag (304 when the browser has these bytes). */
    private static void stylesheet(HttpServletRequest request, HttpServletResponse response) throws IOException {
        response.setHeader("ETag", Stylesheet.ETAG);
        String known = request.getHeader("If-None-Match");
        if (known != null && (known.equals("*") || Arrays.stream(known.split(",")).map(String::strip)
                .anyMatch(tag -> tag.equals(Stylesheet.ETAG) || tag.equals("W/" + Stylesheet.ETAG)))) {
            response.setHeader("Cache-Control", Stylesheet.CACHE_CONTROL);
            response.setStatus(304);
            return;
        }
        send(request, response, Stylesheet.CONTENT_TYPE, Stylesheet.CACHE_CONTROL, Stylesheet.bytes());
    }

    /** One pool as the API shows it; {@code hitRate} null before its first transfer. */
    record PoolView(String id, String url, String site, String state, boolean nearest, double load, int activeMovers,
                    long bytesPerSecOut, long freeBytes, long capacityBytes, long hits, long misses, Double hitRate) {
        static PoolView of(PoolRecord p, boolean nearest) {
            return new PoolView(p.id(), p.url(), p.site(), p.state(), nearest, p.load(), p.activeMovers(), p.bytesPerSecOut(),
                    p.freeBytes(), p.capacityBytes(), p.hits(), p.misses(), p.hitRate() < 0 ? null : p.hitRate());
        }
    }

    /** The answer of {@code /api/v1/pools}: who asked, from which site, under which policy, and the pools. */
    record PoolsAnswer(String client, String site, String policy, List<PoolView> pools) {
    }

    /**
     * Live pools, nearest first for a client at {@code address}: pools at the client's site (by the cluster setting
     * {@code door.site-map}) before the others, each group least loaded first; draining pools last, as no read goes
     * there.
     */
    PoolsAnswer poolsFor(String address) {
        ClusterSettings now = settings.get();
        Optional<String> site = now.get(Keys.SITE_MAP).siteOf(address);
        List<PoolView> ordered = pools.live().stream()
                .sorted(Comparator.comparing((PoolRecord p) -> p.draining())
                        .thenComparing(p -> !(site.isPresent() && site.get().equals(p.site())))
                        .thenComparingDouble(PoolRecord::load)
                        .thenComparing(PoolRecord::id))
                .map(p -> PoolView.of(p, site.isPresent() && site.get().equals(p.site())))
                .toList();
        return new PoolsAnswer(address, site.orElse(null), now.get(Keys.SELECTION_POLICY).label(), ordered);
    }
}
