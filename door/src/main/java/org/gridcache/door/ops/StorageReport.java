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
import org.gridcache.common.settings.StorageShares;

/**
 * WLCG Storage Resource Reporting (SRR, schema 4.2) at {@code /.gridcache/api/v1/srr}: the JSON a site registers in
 * CRIC for WLCG storage space accounting, where dCache's frontend serves it ({@code /api/v1/srr}). Built per request
 * from what the door already holds: the live pools' records in ZooKeeper and the mount table.
 *
 * <p>{@code srr.shares=origin} (the default): one share per origin, named after its mounts, its mount points as
 * {@code path} (mounts of one URL share their replicas, which are keyed by origin URL, and so one share),
 * {@code usedsize} the bytes of complete replicas the live pools hold of it (each pool publishes them per origin URL,
 * {@link PoolRecord#originBytes}), {@code vos} empty: the policy file does not say which VOs a share holds (first match
 * wins, rules by DN or for anyone admit any VO, and a bearer token's scopes decide instead of the file).
 * {@code srr.shares=vo}: one share per VO that mounts declare ({@code origins add --vo}), named after it, with
 * {@code vos} that VO, the mount points of its origins as {@code path} and their bytes summed; an origin's VO is the
 * one its mounts declare, not that of whoever read a file first, since a cached file serves every reader the policy
 * admits. An origin whose mounts declare several VOs is one share of them all ({@code atlas+cms}); one that declares
 * none is a share of its own, as with {@code origin}. Every share's {@code totalsize} is the live pools' whole
 * capacity, since every origin may fill it, as dCache reports each share of a pool group that several share. The
 * service's sizes are the pools' totals: what they hold ({@code capacity - free}, partial files and replicas of origins
 * no longer mounted included) and capacities.
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

    /** The report of the pools live now, its shares {@code by} origin or VO, its times in epoch seconds. */
    public Srr of(List<PoolRecord> live, StorageShares by, long nowSeconds) {
        long total = live.stream().mapToLong(PoolRecord::capacityBytes).sum();
        long used = live.stream().mapToLong(p -> Math.max(0, p.capacityBytes() - p.freeBytes())).sum();
        String url = doorUrl.get();
        String endpoint = doorId.get() + "-" + scheme(url);
        String state = servingState(live);
        Map<String, List<OriginEntry>> byOrigin = mounts.get().stream()
                .collect(Collectors.groupingBy(OriginEntry::url, TreeMap::new, Collectors.toList()));
        Map<String, Holding> holdings = new TreeMap<>();
        for (Map.Entry<String, List<OriginEntry>> origin : byOrigin.entrySet()) {
            List<String> vos = by == StorageShares.VO ? vosOf(origin.getValue()) : List.of();
            String name = vos.isEmpty() ? origin.getValue().stream().map(OriginEntry::name).sorted()
                    .collect(Collectors.joining("+")) : String.join("+", vos);
            // an origin of no VO is never merged into a VO's share, whatever their names
            Holding holding = holdings.computeIfAbsent((vos.isEmpty() ? "origin " : "vo ") + name,
                    k -> new Holding(name, vos));
            origin.getValue().forEach(mount -> holding.paths.add(mount.prefix()));
            holding.bytes += live.stream().mapToLong(p -> p.bytesOf(origin.getKey())).sum();
        }
        List<Share> shares = new ArrayList<>();
        holdings.values().forEach(h -> shares.add(new Share(h.name, h.name, nowSeconds, total, h.bytes,
                h.paths.stream().sorted().toList(), h.vos, List.of(endpoint), "online", "replica", state)));
        shares.sort(Comparator.comparing(s -> s.path().get(0)));
        Endpoint door = new Endpoint(endpoint, endpoint, url, scheme(url), List.of("data.access", "data.management"),
                "production", shares.stream().map(Share::name).toList());
        return new Srr(new Service(doorId.get(), doorId.get(), IMPLEMENTATION, version, "production", nowSeconds,
                new Capacity(new Sizes(total, used)), List.of(door), shares));
    }

    /** The VOs the mounts of one origin declare, sorted. */
    private static List<String> vosOf(List<OriginEntry> mounts) {
        return mounts.stream().map(OriginEntry::vo).filter(java.util.Objects::nonNull).distinct().sorted().toList();
    }

    /** What one share holds while the report is built: its name, VOs, mount points and bytes. */
    private static final class Holding {
        final String name;
        final List<String> vos;
        final List<String> paths = new ArrayList<>();
        long bytes;

        Holding(String name, List<String> vos) {
            this.name = name;
            this.vos = vos;
        }
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

    /** One origin's or one VO's space (see the class comment). */
    public record Share(String name, String id, long timestamp, long totalsize, long usedsize, List<String> path,
                        List<String> vos, List<String> assignedendpoints, String accesslatency, String retentionpolicy,
                        String servingstate) {
    }
}
