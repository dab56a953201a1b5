package org.gridcache.zk.security;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.apache.curator.framework.api.ACLProvider;
import org.apache.zookeeper.ZooDefs.Perms;
import org.apache.zookeeper.data.ACL;
import org.apache.zookeeper.data.Id;
import org.gridcache.zk.layout.ZkLayout;

/**
 * Who may do what to which znode of a secured cluster (ARCHITECTURE.md, "ZooKeeper layout"), as ZooKeeper ACLs:
 *
 * <ul>
 * <li>the shared tree ({@code /}, {@code /gridcache}, {@code /origins}, {@code /config}): admins everything, cluster
 * members read ({@link #shared()});</li>
 * <li>the pool registry {@code /pools}: as the shared tree (so an admin may remove a stale or rogue record), and a
 * member may create and delete a child whose ACL makes it the owner ({@link #registry()}, the {@code owner} rule of
 * {@link ZkRolePolicy});</li>
 * <li>the door registry {@code /doors}: the same, but only a door may create and delete its own child
 * ({@link #doorRegistry()}, the {@code door-owner} rule): a door's record publishes the keys its tickets are checked
 * with, so a pool that could register as a door could mint tickets every pool accepts;</li>
 * <li>a pool's or a door's own record: its creator's certificate DN everything, members and admins read
 * ({@link #ownRecord(String)}): no other pool can change or remove it;</li>
 * <li>the WebDAV lock table {@code /locks} and its locks: admins everything, members read and write, create and
 * delete ({@link #lockTable()}): a lock taken through one door is refreshed or released through any other;</li>
 * <li>the dead properties {@code /props} and each resource's: admins everything, doors read, write, create and delete
 * ({@link #doorsOnly()}): only doors answer PROPPATCH and PROPFIND, and a pool has no business with them;</li>
 * <li>the secrets {@code /secrets}: admins everything, doors read and create ({@link #secrets()}); a secret below it
 * (the macaroon root keys): admins everything, doors read ({@link #secret()}): a pool or a user's certificate never
 * reads it, and a door creates it once but cannot replace it (a rotation is an admin's).</li>
 * </ul>
 *
 * Roles are ids of the scheme {@value #SCHEME}, which only the certificate a client presents can grant
 * ({@link ZkCertificateAuthentication}); a DN is an id of ZooKeeper's {@value #X509} scheme, in RFC 2253 form.
 * As an {@link ACLProvider} this gives the ACL of whatever a client of this cluster creates.
 */
public final class ZkAcls implements ACLProvider {
    public static final String SCHEME = "gridcache";
    public static final String X509 = "x509";
    public static final String ADMIN = "admin";
    public static final String MEMBER = "member";
    public static final String OWNER = "owner";
    /** The role of a client that may register in {@code /doors} (a {@code --door} DN, or any member when none is given). */
    public static final String DOOR = "door";
    public static final String DOOR_OWNER = "door-owner";
    /** A member also holds the id {@code member:<its DN>}, which the {@code owner} rule reads. */
    public static final String MEMBER_PREFIX = "member:";
    /** A door also holds the id {@code door:<its DN>}, which the {@code door-owner} rule reads. */
    public static final String DOOR_PREFIX = "door:";
    static final Id ADMINS = new Id(SCHEME, ADMIN);
    static final Id MEMBERS = new Id(SCHEME, MEMBER);
    static final Id OWNERS = new Id(SCHEME, OWNER);
    static final Id DOOR_OWNERS = new Id(SCHEME, DOOR_OWNER);
    static final Id DOORS = new Id(SCHEME, DOOR);
    private final String ownDn;

    /** @param ownDn the RFC 2253 DN of the end-entity certificate this client presents: the owner of its own records */
    public ZkAcls(String ownDn) {
        this.ownDn = ownDn;
    }

    // mutable lists: ZooKeeper's client asks them whether they contain null, which List.of refuses to answer

    public static List<ACL> shared() {
        return acl(new ACL(Perms.ALL, ADMINS), new ACL(Perms.READ, MEMBERS));
    }

    public static List<ACL> registry() {
        return acl(new ACL(Perms.ALL, ADMINS), new ACL(Perms.READ, MEMBERS), new ACL(Perms.CREATE | Perms.DELETE, OWNERS));
    }

    public static List<ACL> doorRegistry() {
        return acl(new ACL(Perms.ALL, ADMINS), new ACL(Perms.READ, MEMBERS), new ACL(Perms.CREATE | Perms.DELETE, DOOR_OWNERS));
    }

    public static List<ACL> lockTable() {
        return acl(new ACL(Perms.ALL, ADMINS), new ACL(Perms.READ | Perms.WRITE | Perms.CREATE | Perms.DELETE, MEMBERS));
    }

    public static List<ACL> doorsOnly() {
        return acl(new ACL(Perms.ALL, ADMINS), new ACL(Perms.READ | Perms.WRITE | Perms.CREATE | Perms.DELETE, DOORS));
    }

    public static List<ACL> secrets() {
        return acl(new ACL(Perms.ALL, ADMINS), new ACL(Perms.READ | Perms.CREATE, DOORS));
    }

    public static List<ACL> secret() {
        return acl(new ACL(Perms.ALL, ADMINS), new ACL(Perms.READ, DOORS));
    }

    public static List<ACL> ownRecord(String dn) {
        return acl(new ACL(Perms.ALL, new Id(X509, dn)), new ACL(Perms.READ, MEMBERS), new ACL(Perms.READ, ADMINS));
    }

    private static List<ACL> acl(ACL... entries) {
        return new ArrayList<>(Arrays.asList(entries));
    }

    /** {@code /pools}, {@code /doors} or {@code /writes}, relative to the chroot. */
    static boolean isRegistry(String relative) {
        return relative.equals(ZkLayout.POOLS) || relative.equals(ZkLayout.DOORS) || relative.equals(ZkLayout.WRITES);
    }

    /** A path relative to the chroot, whether Curator passes it with the namespace or without. */
    static String relative(String path) {
        String prefix = "/" + ZkLayout.DEFAULT_NAMESPACE;
        if (path.equals(prefix)) {
            return "/";
        }
        return path.startsWith(prefix + "/") ? path.substring(prefix.length()) : path;
    }

    static String parent(String path) {
        int slash = path.lastIndexOf('/');
        return slash <= 0 ? "/" : path.substring(0, slash);
    }

    @Override
    public List<ACL> getDefaultAcl() {
        return shared();
    }

    @Override
    public List<ACL> getAclForPath(String path) {
        String relative = relative(path);
        if (relative.equals(ZkLayout.DOORS) || relative.equals(ZkLayout.WRITES)) {
            return doorRegistry(); // only doors register, and only doors tell of their writes
        }
        if (relative.equals(ZkLayout.POOLS)) {
            return registry();
        }
        if (isRegistry(parent(relative))) {
            return ownRecord(ownDn);
        }
        if (relative.equals(ZkLayout.LOCKS) || parent(relative).equals(ZkLayout.LOCKS)) {
            return lockTable();
        }
        if (relative.equals(ZkLayout.PROPS) || parent(relative).equals(ZkLayout.PROPS)) {
            return doorsOnly();
        }
        if (relative.equals(ZkLayout.SECRETS)) {
            return secrets();
        }
        if (parent(relative).equals(ZkLayout.SECRETS)) {
            return secret();
        }
        return shared();
    }
}
