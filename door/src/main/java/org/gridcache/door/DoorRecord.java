package org.gridcache.door;

import java.util.List;
import java.util.Map;

/**
 * What a door publishes in its ephemeral znode {@code /doors/<id>} (ARCHITECTURE.md, "ZooKeeper layout").
 * {@code ticketKeys}: the public JWKs of its ticket keys (the current one first; during a roll-over also the previous
 * one), with which pools verify its tickets; the znode's ACL lets only this door write them. {@code fileOriginRoots}:
 * its {@code --file-origin-root} directories (real paths), which {@code gridcache origins add} checks a {@code file://}
 * origin against; null in the records of older doors.
 */
public record DoorRecord(String id, String url, String version, long startedAt, List<Map<String, Object>> ticketKeys,
                         List<String> fileOriginRoots) {
}
