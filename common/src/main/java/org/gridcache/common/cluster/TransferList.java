package org.gridcache.common.cluster;

import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;

/**
 * The transfers in progress in the whole cluster, from the pools' records: the answer of the door's
 * {@code /.gridcache/api/v1/transfers}, the rows of its status page and the lines of {@code gridcache transfers}.
 * Elapsed time and ETA are reckoned here, at {@code now}, from what each pool published (its records are at most a
 * publication period old).
 *
 * @param time      when this list was made, ISO-8601 UTC
 * @param transfers the longest-running first
 */
public record TransferList(String time, List<Entry> transfers) {

    /**
     * One transfer as the API shows it.
     *
     * @param pool           the pool it runs at
     * @param size           null when unknown
     * @param elapsedSeconds since it started
     * @param etaSeconds     seconds left at its rate; null when its size is unknown or it is not moving
     */
    public record Entry(String pool, String kind, String subject, String path, long bytes, Long size, long bytesPerSec,
                        String startedAt, long elapsedSeconds, Long etaSeconds) {
        /** Done over size, 0 to 1; -1 when the size is unknown. */
        public double fraction() {
            if (size == null) {
                return -1;
            }
            return size == 0 ? 1 : Math.min(1.0, (double) bytes / size);
        }
    }

    public static TransferList of(List<PoolRecord> pools, long nowMillis) {
        List<Entry> entries = pools.stream()
                .flatMap(p -> p.transfers().stream().map(t -> entry(p.id(), t, nowMillis)))
                .sorted(Comparator.comparing(Entry::elapsedSeconds).reversed().thenComparing(Entry::pool).thenComparing(Entry::path))
                .toList();
        return new TransferList(Instant.ofEpochMilli(nowMillis).truncatedTo(ChronoUnit.SECONDS).toString(), entries);
    }

    private static Entry entry(String pool, ActiveTransfer t, long nowMillis) {
        Long size = t.size() >= 0 ? t.size() : null;
        Long eta = size != null && t.bytesPerSec() > 0 ? Math.max(0, size - t.bytes()) / t.bytesPerSec() : null;
        return new Entry(pool, t.kind(), t.subject(), t.path(), t.bytes(), size, t.bytesPerSec(),
                Instant.ofEpochMilli(t.startedAt()).truncatedTo(ChronoUnit.SECONDS).toString(),
                Math.max(0, (nowMillis - t.startedAt()) / 1000), eta);
    }

    /** Seconds as {@code m:ss}, or {@code h:mm:ss} from an hour on; {@code -} for null. */
    public static String duration(Long seconds) {
        if (seconds == null) {
            return "-";
        }
        long s = Math.max(0, seconds);
        return s >= 3600 ? String.format(Locale.ROOT, "%d:%02d:%02d", s / 3600, s / 60 % 60, s % 60)
                : String.format(Locale.ROOT, "%d:%02d", s / 60, s % 60);
    }
}
