package org.gridcache.door.ops;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Supplier;
import java.util.stream.Collectors;
import org.gridcache.common.cluster.PoolRecord;
import org.gridcache.common.origin.OriginEntry;

/**
 * WLCG Storage Resource Reporting (SRR, schema 4.2) at {@code /.gridcache/api/v1/srr}: the JSON a site registers in
 * CRIC for WLCG storage space accounting, where dCache's frontend serves it ({@code /api/v1/srr}). Built per request
 * from what the door already holds: the live pools' records in ZooKeeper and the mount table.
 *
 * <p>One share per origin: its mount points ({@code path}; mounts of one URL share their replicas, which are keyed by
 * origin URL, and so one share), {@code usedsize} the bytes of complete replicas the live pools hold of it (each pool
 * publishes them per origin URL, {@link PoolRecord#originBytes}), {@code totalsize} the live pools' whole capacity,
 * since every origin may fill it, as dCache reports each share of a pool group that several share. {@code vos} is
 * empty: the policy file does not say which VOs a share holds (first match wins, rules by DN or for anyone admit any
 * VO, and a bearer token's scopes decide instead of the file). The service's sizes are the pools' totals: what they
 * hold ({@code capacity - free}, partial files and replicas of origins no longer mounted included) and capacities.
 */
public final class StorageReport {
    static final String IMPLEMENTATION = "gridcache";
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
        String state = servingState(live);
        Map<String, List<OriginEntry>> byOrigin = mounts.get().stream()
                .collect(Collectors.groupingBy(OriginEntry::url, TreeMap::new, Collectors.toList()));
        List<Share> shares = new ArrayList<>();
        for (Map.Entry<String, List<OriginEntry>> origin : byOrigin.entrySet()) {
            String name = origin.getValue().stream().map(OriginEntry::name).sorted().collect(Collectors.joining("+"));
            List<String> paths = origin.getValue().stream().map(OriginEntry::prefix).sorted().toList();
            long held = live.stream().mapToLong(p -> p.bytesOf(origin.getKey())).sum();
            shares.add(new Share(name, name, nowSeconds, total, held, paths, List.of(), List.of(endpoint), "online",
                    "replica", state));
        }
        shares.sort(Comparator.comparing(s -> s.path().get(0)));
        Endpoint door = new Endpoint(endpoint, endpoint, url, scheme(url), List.of("data.access", "data.management"),
                "production", shares.stream().map(Share::name).toList());
        return new Srr(new Service(doorId.get(), doorId.get(), IMPLEMENTATION, version, "production", nowSeconds,
                new Capacity(new Sizes(total, used)), List.of(door), shares));
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

    /** One origin's space; {@code vos} empty (see the class comment). */
    public record Share(String name, String id, long timestamp, long totalsize, long usedsize, List<String> path,
                        List<String> vos, List<String> assignedendpoints, String accesslatency, String retentionpolicy,
                        String servingstate) {
    }
}
