package org.gridcache.door;

/** What a door publishes in its ephemeral znode {@code /doors/<id>} (ARCHITECTURE.md, "ZooKeeper layout"). */
public record DoorRecord(String id, String url, String version, long startedAt) {
}
