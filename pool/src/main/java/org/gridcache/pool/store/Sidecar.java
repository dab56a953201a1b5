package org.gridcache.pool.store;

import java.util.Map;
import org.gridcache.common.checksum.Checksums;

/**
 * The metadata file next to each stored data file ({@code <hex>.json}): what was fetched, from where, and how
 * big it must be. Start-up trusts a data file only when its size equals {@link #size}. {@code checksums}: the
 * file's checksums computed while it filled (RFC 3230 name to hex; null in sidecars written before they were kept).
 */
public record Sidecar(String originUrl, long size, long mtime, String etag, long storedAt, Map<String, String> checksums) {
    public Sidecar(String originUrl, long size, long mtime, String etag, long storedAt) {
        this(originUrl, size, mtime, etag, storedAt, null);
    }

    public Checksums knownChecksums() {
        return Checksums.fromHex(checksums);
    }
}
