package org.gridcache.zk.layout;

import org.gridcache.zk.WriteNotices;
import org.gridcache.zk.MacaroonSecrets;
/** The znodes of ARCHITECTURE.md, "ZooKeeper layout", relative to the chroot (Curator namespace, default {@code gridcache}). */
public final class ZkLayout {
    public static final String DEFAULT_NAMESPACE = "gridcache";
    public static final String POOLS = "/pools";
    public static final String DOORS = "/doors";
    public static final String ORIGINS = "/origins";
    public static final String CONFIG = "/config";
    /** WebDAV locks shared by every door ({@code org.gridcache.zk.lock.LockTable}). */
    public static final String LOCKS = "/locks";
    /** Each door's recent writes, so other doors drop their cached listings of those paths ({@link WriteNotices}). */
    public static final String WRITES = "/writes";
    /** Dead WebDAV properties, one znode per resource ({@code org.gridcache.zk.props.DeadPropertyStore}). */
    public static final String PROPS = "/props";
    /** Secrets only doors read: the parent of {@link #MACAROON_SECRET}. */
    public static final String SECRETS = "/secrets";
    /** The root keys doors sign and verify macaroons with ({@code org.gridcache.zk.MacaroonSecrets}). */
    public static final String MACAROON_SECRET = SECRETS + "/macaroon";

    private ZkLayout() {
    }

    public static String pool(String id) {
        return POOLS + "/" + id;
    }

    public static String door(String id) {
        return DOORS + "/" + id;
    }

    public static String writes(String doorId) {
        return WRITES + "/" + doorId;
    }

    /** {@code hash}: the SHA-256 (hex) of the resource's namespace path. */
    public static String props(String hash) {
        return PROPS + "/" + hash;
    }

    public static String origin(String name) {
        return ORIGINS + "/" + name;
    }
}
