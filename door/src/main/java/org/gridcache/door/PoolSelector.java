package org.gridcache.door;

import java.util.List;
import java.util.Optional;
import org.gridcache.common.PoolRecord;

/** Chooses the pool that serves one read (DESIGN.md §5); policies: least loaded now, random and affinity later. */
public interface PoolSelector {
    Optional<PoolRecord> choose(String path, List<PoolRecord> live);
}
