package org.gridcache.zk.security;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.apache.zookeeper.ZooDefs.Ids;
import org.apache.zookeeper.ZooDefs.Perms;
import org.apache.zookeeper.data.ACL;
import org.apache.zookeeper.data.Id;
import org.apache.zookeeper.server.auth.ServerAuthenticationProvider;
import org.apache.zookeeper.server.auth.ServerAuthenticationProvider.MatchValues;
import org.junit.jupiter.api.Test;

/** The ACLs a secured cluster's clients give what they create, and the {@code gridcache} scheme's rules. */
class ZkAclsTest {
    private static final String POOL1 = "CN=pool1.example.org,OU=hosts,DC=example,DC=org";
    private static final String POOL2 = "CN=pool2.example.org,OU=hosts,DC=example,DC=org";
    private final ZkAcls acls = new ZkAcls(POOL1);
    private final ZkRolePolicy policy = new ZkRolePolicy();

    @Test
    void theSharedTreeIsWrittenByAdminsAndReadByMembers() {
        List<ACL> shared = List.of(new ACL(Perms.ALL, new Id("gridcache", "admin")), new ACL(Perms.READ, new Id("gridcache", "member")));
        for (String path : List.of("/gridcache", "/gridcache/origins", "/gridcache/origins/atlas", "/gridcache/config", "/origins/atlas")) {
            assertEquals(shared, acls.getAclForPath(path), path);
        }
        assertEquals(shared, acls.getDefaultAcl());
    }

    @Test
    void theLockTableIsReadAndWrittenByEveryMember() {
        List<ACL> locks = List.of(new ACL(Perms.ALL, new Id("gridcache", "admin")),
                new ACL(Perms.READ | Perms.WRITE | Perms.CREATE | Perms.DELETE, new Id("gridcache", "member")));
        for (String path : List.of("/gridcache/locks", "/locks", "/gridcache/locks/0f8fad5b-d9cb-469f-a165-70867728950e")) {
            assertEquals(locks, acls.getAclForPath(path), path);
        }
    }

    @Test
    void deadPropertiesAreReadAndWrittenByDoorsOnly() {
        List<ACL> props = List.of(new ACL(Perms.ALL, new Id("gridcache", "admin")),
                new ACL(Perms.READ | Perms.WRITE | Perms.CREATE | Perms.DELETE, new Id("gridcache", "door")));
        for (String path : List.of("/gridcache/props", "/props", "/gridcache/props/" + "ab".repeat(32))) {
            assertEquals(props, acls.getAclForPath(path), path);
        }
        assertTrue(policy.isValid("door"), "the door role is an id of the scheme");
    }

    @Test
    void secretsAreReadByDoorsOnlyAndReplacedByAdminsOnly() {
        assertEquals(List.of(new ACL(Perms.ALL, new Id("gridcache", "admin")), new ACL(Perms.READ | Perms.CREATE, new Id("gridcache", "door"))),
                acls.getAclForPath("/gridcache/secrets"));
        List<ACL> secret = List.of(new ACL(Perms.ALL, new Id("gridcache", "admin")), new ACL(Perms.READ, new Id("gridcache", "door")));
        for (String path : List.of("/gridcache/secrets/macaroon", "/secrets/macaroon")) {
            assertEquals(secret, acls.getAclForPath(path), path);
        }
        assertFalse(acls.getAclForPath("/gridcache/secrets/macaroon").stream().anyMatch(a -> a.getId().getId().equals("member")),
                "a pool, a member but no door, reads no secret");
    }

    @Test
    void aNodesOwnRecordIsItsAloneAndReadByTheCluster() {
        List<ACL> own = List.of(new ACL(Perms.ALL, new Id("x509", POOL1)), new ACL(Perms.READ, new Id("gridcache", "member")),
                new ACL(Perms.READ, new Id("gridcache", "admin")));
        assertEquals(own, acls.getAclForPath("/gridcache/pools/p1"));
        assertEquals(own, acls.getAclForPath("/gridcache/doors/d1"));
        assertEquals(own, acls.getAclForPath("/pools/p1"), "with or without the namespace");
        assertTrue(acls.getAclForPath("/gridcache/pools").contains(new ACL(Perms.CREATE | Perms.DELETE, new Id("gridcache", "owner"))),
                "members register in the pool registry");
        assertFalse(acls.getAclForPath("/gridcache/origins").stream().anyMatch(a -> a.getId().getId().equals("owner")),
                "nobody registers in the mount table");
    }

    @Test
    void onlyDoorsRegisterInTheDoorRegistry() {
        List<ACL> doors = List.of(new ACL(Perms.ALL, new Id("gridcache", "admin")), new ACL(Perms.READ, new Id("gridcache", "member")),
                new ACL(Perms.CREATE | Perms.DELETE, new Id("gridcache", "door-owner")));
        assertEquals(doors, acls.getAclForPath("/gridcache/doors"));
        assertEquals(doors, acls.getAclForPath("/doors"));
        assertEquals(doors, ZkAcls.doorRegistry());
        assertEquals(doors, acls.getAclForPath("/gridcache/writes"), "only doors tell of their writes");
        assertEquals(ZkAcls.ownRecord(POOL1), acls.getAclForPath("/gridcache/writes/door1"));
        assertFalse(acls.getAclForPath("/gridcache/doors").stream().anyMatch(a -> a.getId().getId().equals("owner")),
                "a member's owner rule gives nothing in /doors");
        assertFalse(acls.getAclForPath("/gridcache/pools").stream().anyMatch(a -> a.getId().getId().equals("door-owner")));
    }

    @Test
    void aDoorCreatesADoorRecordOnlyAsItsOwnAndAMemberCreatesNone() {
        List<ACL> own = ZkAcls.ownRecord(POOL1);
        assertTrue(matches("door:" + POOL1, "door-owner", Perms.CREATE, "/gridcache/doors/d1", own));
        assertFalse(matches("member:" + POOL1, "door-owner", Perms.CREATE, "/gridcache/doors/d1", own), "a member is no door");
        assertFalse(matches("door:" + POOL2, "door-owner", Perms.CREATE, "/gridcache/doors/d1", own), "not in another's name");
        assertFalse(matches("door:" + POOL1, "owner", Perms.CREATE, "/gridcache/pools/p1", own), "a door's id is no member's");
        assertFalse(matches("door:" + POOL1, "door-owner", Perms.WRITE, "/gridcache/doors/d1", null), "create and delete only");
        assertFalse(matches("door", "door-owner", Perms.CREATE, "/gridcache/doors/d1", own));
        assertTrue(policy.isValid("door-owner"));
    }

    private boolean matches(String id, String expr, int perm, String path, List<ACL> setAcls) {
        return policy.matches(null, new MatchValues(path, id, expr, perm, setAcls));
    }

    @Test
    void rolesMatchOnlyTheirHolders() {
        assertTrue(matches("admin", "admin", Perms.WRITE, "/gridcache/config", null));
        assertFalse(matches("member", "admin", Perms.WRITE, "/gridcache/config", null));
        assertTrue(matches("member", "member", Perms.READ, "/gridcache/config", null));
        assertFalse(matches("member:" + POOL1, "admin", Perms.WRITE, "/gridcache/config", null));
        assertFalse(matches("admin", "owner", Perms.CREATE, "/gridcache/pools/p1", ZkAcls.ownRecord("CN=admin")),
                "owner is a member's right");
    }

    @Test
    void aMemberCreatesARegistryEntryOnlyAsItsOwnRecord() {
        assertTrue(matches("member:" + POOL1, "owner", Perms.CREATE, "/gridcache/pools/p1", ZkAcls.ownRecord(POOL1)));
        assertFalse(matches("member:" + POOL2, "owner", Perms.CREATE, "/gridcache/pools/p1", ZkAcls.ownRecord(POOL1)),
                "not in another member's name");
        List<ACL> open = new ArrayList<>(ZkAcls.ownRecord(POOL1));
        open.add(new ACL(Perms.ALL, Ids.ANYONE_ID_UNSAFE));
        assertFalse(matches("member:" + POOL1, "owner", Perms.CREATE, "/gridcache/pools/p1", open), "not writable by others");
        assertFalse(matches("member:" + POOL1, "owner", Perms.CREATE, "/gridcache/pools/p1", Ids.OPEN_ACL_UNSAFE));
        assertFalse(matches("member:" + POOL1, "owner", Perms.WRITE, "/gridcache/pools/p1", null), "owner grants create and delete only");
    }

    @Test
    void rolesCannotBeClaimedWithAddAuthAndOnlyKnownExpressionsAreValid() throws Exception {
        // by reflection: ZooKeeper's overloads name a servlet class this module does not have
        Object code = ZkRolePolicy.class.getMethod("handleAuthentication", ServerAuthenticationProvider.ServerObjs.class, byte[].class)
                .invoke(policy, null, "admin".getBytes(java.nio.charset.StandardCharsets.US_ASCII));
        assertEquals(org.apache.zookeeper.KeeperException.Code.AUTHFAILED, code);
        assertTrue(policy.isValid("admin") && policy.isValid("member") && policy.isValid("owner"));
        assertFalse(policy.isValid("anyone"));
    }

    @Test
    void dnsAreAcceptedInTheGridsFormAndInRfc2253() {
        assertEquals(ZkServerTls.principal("/DC=org/DC=example/CN=Alice"), ZkServerTls.principal("CN=Alice,DC=example,DC=org"));
        assertEquals("not a distinguished name: 'Alice'",
                org.junit.jupiter.api.Assertions.assertThrows(IllegalArgumentException.class, () -> ZkServerTls.principal("Alice")).getMessage());
    }
}
