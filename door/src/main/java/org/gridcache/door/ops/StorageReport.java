package org.gridcache.door.ops;

import java.util.List;
import java.util.function.Supplier;
import org.gridcache.common.cluster.PoolRecord;
import org.gridcache.common.origin.OriginEntry;

/**
 * WLCG Storage Resource Reporting (SRR, schema 4.2) at {@code /.gridcache/api/v1/srr}: the JSON a site registers in
 * CRIC for WLCG storage space accounting, where dCache's frontend serves it ({@code /api/v1/srr}). Built per request
 * from what the door already holds: the live pools' records in ZooKeeper and the mount table. One share covers every
 * mount point: a pool's store is keyed by a hash of the origin URL and publishes only its totals, so used and total
 * sizes are the sums over the live pools of what each holds ({@code capacity - free}) and of their capacities.
 */
public final class StorageReport {
    static final String IMPLEMENTATION = "gridcache";
    static final String SHARE = "cache";
    private final Supplier<String> doorId;
    private final Supplier<String> doorUrl;
    private final String version;
    private final Supplier<List<OriginEntry>> mounts;

    /** The door's id and URL are read per report: the URL is known once the door listens. */
    public StorageReport(Supplier<String> doorId, Supplier<String> doorUrl, String version,
                         Supplier<List<OriginEntry>> mounts) {
        this.doorId = doorId;
        this.doorUrl = doorUrl;
        this.version = version;
        this.mounts = mounts;
    }

    /** The report of the pools live now, its times in epoch seconds. */
    public Srr of(List<PoolRecord> live, long nowSeconds) {
        long total = live.stream().mapToLong(PoolRecord::capacityBytes).sum();
        long used = live.stream().mapToLong(p -> Math.max(0, p.capacityBytes() - p.freeBytes())).sum();
        String url = doorUrl.get();
        String endpoint = doorId.get() + "-" + scheme(url);
        List<String> paths = mounts.get().stream().map(OriginEntry::prefix).sorted().toList();
        Share share = new Share(SHARE, SHARE, nowSeconds, total, used, paths, List.of(), List.of(endpoint), "online",
                "replica", servingState(live));
        Endpoint door = new Endpoint(endpoint, endpoint, url, scheme(url), List.of("data.access", "data.management"),
                "production", List.of(SHARE));
        return new Srr(new Service(doorId.get(), doorId.get(), IMPLEMENTATION, version, "production", nowSeconds,
                new Capacity(new Sizes(total, used)), List.of(door), List.of(share)));
    }

    private static String scheme(String url) {
        return url != null && url.startsWith("https:") ? "https" : "http";
    }

    /** Open while a pool takes new reads; draining when every live pool drains; closed without pools. */
    private static String servingState(List<PoolRecord> live) {
        if (live.isEmpty()) {
            return "closed";
        }
        return live.stream().allMatch(PoolRecord::draining) ? "draining" : "open";
    }

    /** The document: one {@code storageservice}. */
    public record Srr(Service storageservice) {
    }

    public record Service(String name, String id, String implementation, String implementationversion,
                          String qualitylevel, long latestupdate, Capacity storagecapacity,
                          List<Endpoint> storageendpoints, List<Share> storageshares) {
    }

    public record Capacity(Sizes online) {
    }

    public record Sizes(long totalsize, long usedsize) {
    }

    public record Endpoint(String name, String id, String endpointurl, String interfacetype, List<String> capabilities,
                           String qualitylevel, List<String> assignedshares) {
    }

    /** {@code vos} empty: the door serves whoever its policy admits, not one VO's space. */
    public record Share(String name, String id, long timestamp, long totalsize, long usedsize, List<String> path,
                        List<String> vos, List<String> assignedendpoints, String accesslatency, String retentionpolicy,
                        String servingstate) {
    }
}
