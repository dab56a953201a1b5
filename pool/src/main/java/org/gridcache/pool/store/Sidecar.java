package org.gridcache.pool.store;

import com.fasterxml.jackson.annotation.JsonInclude;
import java.util.Map;
import org.gridcache.common.checksum.Checksums;

/**
 * The metadata file next to each stored data file ({@code <hex>.json}): what was fetched, from where, and how
 * big it must be. Start-up trusts a data file only when its size equals {@link #size}. {@code checksums}: the
 * file's checksums computed while it filled (RFC 3230 name to hex; null in sidecars written before they were kept).
 *
 * <p>A partial file's sidecar ({@code <hex>.blocks.json}, next to {@code <hex>.blocks}) also has {@code blockSize}
 * and {@code blocks}, the {@link BlockBitmap} of the blocks proven on disk; both are absent (not null) from a
 * complete file's sidecar, which stays as small as before.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record Sidecar(String originUrl, long size, long mtime, String etag, long storedAt, Map<String, String> checksums,
                      Integer blockSize, String blocks) {
    public Sidecar(String originUrl, long size, long mtime, String etag, long storedAt) {
        this(originUrl, size, mtime, etag, storedAt, null);
    }

    public Sidecar(String originUrl, long size, long mtime, String etag, long storedAt, Map<String, String> checksums) {
        this(originUrl, size, mtime, etag, storedAt, checksums, null, null);
    }

    /** This sidecar with {@code more} checksums added to those it holds (a value it holds is kept). */
    Sidecar withMoreChecksums(Checksums more) {
        return new Sidecar(originUrl, size, mtime, etag, storedAt, knownChecksums().with(more).toHex(), blockSize, blocks);
    }

    public Checksums knownChecksums() {
        return Checksums.fromHex(checksums);
    }
}
