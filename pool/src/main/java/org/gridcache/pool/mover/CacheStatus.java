package org.gridcache.pool.mover;

/**
 * What the pool did for one answer, as RFC 9211's {@code Cache-Status} says it (beside the older {@code X-Cache}):
 * one entry named {@code gridcache}. {@code hit}: every byte came from the store. {@code fwd=uri-miss}: the file was
 * not stored; {@code fwd=stale}: a stored copy no longer matched the origin's size or mtime and was fetched anew;
 * {@code fwd=partial}: a block read fetched the blocks the store lacked. {@code stored}: what was fetched is kept for
 * the next reader; {@code collapsed}: this client joined a fetch another started; {@code detail=peer}: the bytes came from another pool rather than the origin.
 */
public final class CacheStatus {
    public static final String HEADER = "Cache-Status";
    static final String HIT = "gridcache; hit";
    /** A block read that fetched blocks (the blocks it found stored are a hit: {@link #HIT}). */
    static final String BLOCKS = "gridcache; fwd=partial; stored";

    private CacheStatus() {
    }

    /** A whole-file fetch this client waits for: started by it or joined ({@code collapsed}). */
    static String fetched(boolean stale, boolean collapsed, boolean fromPeer) {
        return "gridcache; fwd=" + (stale ? "stale" : "uri-miss") + (collapsed ? "; collapsed" : "") + "; stored"
                + (fromPeer ? "; detail=peer" : "");
    }
}
