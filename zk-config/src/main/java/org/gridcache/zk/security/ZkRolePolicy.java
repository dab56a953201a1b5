package org.gridcache.zk.security;

import java.util.List;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.ZooDefs.Perms;
import org.apache.zookeeper.data.ACL;
import org.apache.zookeeper.server.DataNode;
import org.apache.zookeeper.server.auth.ServerAuthenticationProvider;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The {@value ZkAcls#SCHEME} ACL scheme: {@code admin} and {@code member} match a client holding that role (granted by
 * its certificate; {@code addauth} with this scheme fails, except for the ZooKeeper server's own tree-creating client,
 * which proves itself with a secret of the process and becomes admin: {@link ZkServerTls#isTreeToken}); {@code owner},
 * on {@code /pools}, lets a member (id {@code member:<DN>}) create a child only with the ACL of
 * {@link ZkAcls#ownRecord} naming its own DN, and delete only a child that names it. So a pool registers
 * {@code /pools/<id>} and nobody else can change or remove that record while it lives. {@code door-owner}, on
 * {@code /doors}, is the same rule for a door (id {@code door:<DN>}).
 * ZooKeeper instantiates this class itself (system property {@code zookeeper.authProvider.gridcache}).
 */
public final class ZkRolePolicy extends ServerAuthenticationProvider {
    private static final Logger LOG = LoggerFactory.getLogger(ZkRolePolicy.class);

    @Override
    public String getScheme() {
        return ZkAcls.SCHEME;
    }

    @Override
    public KeeperException.Code handleAuthentication(ServerObjs serverObjs, byte[] authData) {
        if (serverObjs == null || !ZkServerTls.isTreeToken(authData)) {
            if (serverObjs != null) {
                LOG.warn("ZooKeeper client at {} refused: addauth {} grants no role", serverObjs.getCnxn().getRemoteSocketAddress(), ZkAcls.SCHEME);
            }
            return KeeperException.Code.AUTHFAILED;
        }
        serverObjs.getCnxn().addAuthInfo(ZkAcls.ADMINS);
        LOG.info("ZooKeeper client at {} is this server's own tree client: admin", serverObjs.getCnxn().getRemoteSocketAddress());
        return KeeperException.Code.OK;
    }

    @Override
    public boolean matches(ServerObjs serverObjs, MatchValues match) {
        String expr = match.getAclExpr();
        if (expr.equals(ZkAcls.ADMIN) || expr.equals(ZkAcls.MEMBER) || expr.equals(ZkAcls.DOOR)) {
            return match.getId().equals(expr);
        }
        // a write forwarded by a follower reaches the leader without its connection: the id itself names the member
        String prefix = expr.equals(ZkAcls.OWNER) ? ZkAcls.MEMBER_PREFIX : expr.equals(ZkAcls.DOOR_OWNER) ? ZkAcls.DOOR_PREFIX : null;
        if (prefix == null || !match.getId().startsWith(prefix) || match.getPath() == null) {
            return false;
        }
        String dn = match.getId().substring(prefix.length());
        if (match.getPerm() == Perms.CREATE) {
            return ownRecordOf(dn, match.getSetAcls());
        }
        if (match.getPerm() == Perms.DELETE) {
            DataNode node = serverObjs.getZks().getZKDatabase().getNode(match.getPath());
            return node != null && ownRecordOf(dn, serverObjs.getZks().getZKDatabase().aclForNode(node));
        }
        return false;
    }

    /** Exactly {@link ZkAcls#ownRecord(String)} of {@code dn}: anything else could give the record to someone else. */
    static boolean ownRecordOf(String dn, List<ACL> acl) {
        return acl != null && acl.size() == ZkAcls.ownRecord(dn).size() && acl.containsAll(ZkAcls.ownRecord(dn));
    }

    @Override
    public boolean isAuthenticated() {
        return true;
    }

    @Override
    public boolean isValid(String id) {
        return id.equals(ZkAcls.ADMIN) || id.equals(ZkAcls.MEMBER) || id.equals(ZkAcls.OWNER) || id.equals(ZkAcls.DOOR_OWNER)
                || id.equals(ZkAcls.DOOR);
    }
}
