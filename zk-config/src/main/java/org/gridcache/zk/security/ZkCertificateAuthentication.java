package org.gridcache.zk.security;

import eu.emi.security.authn.x509.ValidationResult;
import eu.emi.security.authn.x509.proxy.ProxyUtils;
import java.security.cert.Certificate;
import java.security.cert.CertificateException;
import java.security.cert.X509Certificate;
import java.util.Arrays;
import java.util.List;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.data.Id;
import org.apache.zookeeper.server.ServerCnxn;
import org.apache.zookeeper.server.auth.X509AuthenticationProvider;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * ZooKeeper's {@code x509} authentication, the grid's way: the TLS handshake and the chain check use canl (CA
 * directory with CRLs and signing policies; RFC 3820 proxies accepted) instead of a Java trust store, and a client is
 * known by the DN of its end-entity certificate, so an admin's proxy acts as the admin. Its roles
 * ({@link ZkServerTls#roles}) are added as ids of the {@value ZkAcls#SCHEME} scheme. ZooKeeper instantiates this
 * class itself (system property {@code zookeeper.authProvider.x509}); it reads {@link ZkServerTls#current()}.
 */
public final class ZkCertificateAuthentication extends X509AuthenticationProvider {
    private static final Logger LOG = LoggerFactory.getLogger(ZkCertificateAuthentication.class);

    public ZkCertificateAuthentication() {
        super(ZkServerTls.current().trustManager(), ZkServerTls.current().keyManager());
    }

    @Override
    public KeeperException.Code handleAuthentication(ServerCnxn cnxn, byte[] authData) {
        Certificate[] presented = cnxn.getClientCertificateChain();
        if (presented == null || presented.length == 0) {
            LOG.warn("ZooKeeper client {} presented no certificate", cnxn.getRemoteSocketAddress());
            return KeeperException.Code.AUTHFAILED;
        }
        X509Certificate[] chain = Arrays.stream(presented).map(X509Certificate.class::cast).toArray(X509Certificate[]::new);
        ZkServerTls tls = ZkServerTls.current();
        ValidationResult result = tls.trust().validator().validate(chain);
        if (!result.isValid()) {
            LOG.warn("ZooKeeper client {} refused: {}", chain[0].getSubjectX500Principal().getName(), result.getErrors());
            return KeeperException.Code.AUTHFAILED;
        }
        try {
            String dn = ProxyUtils.getEndUserCertificate(chain).getSubjectX500Principal().getName();
            List<String> roles = tls.roles(chain);
            cnxn.addAuthInfo(new Id(ZkAcls.X509, dn));
            for (String role : roles) {
                cnxn.addAuthInfo(new Id(ZkAcls.SCHEME, role));
            }
            if (roles.contains(ZkAcls.MEMBER)) {
                cnxn.addAuthInfo(new Id(ZkAcls.SCHEME, ZkAcls.MEMBER_PREFIX + dn));
            }
            if (roles.contains(ZkAcls.DOOR)) {
                cnxn.addAuthInfo(new Id(ZkAcls.SCHEME, ZkAcls.DOOR_PREFIX + dn));
            }
            LOG.info("ZooKeeper client {} at {} authenticated, roles {}", dn, cnxn.getRemoteSocketAddress(), roles);
            return KeeperException.Code.OK;
        } catch (CertificateException | RuntimeException e) {
            LOG.warn("ZooKeeper client {} refused: malformed chain ({})", chain[0].getSubjectX500Principal().getName(), e.toString());
            return KeeperException.Code.AUTHFAILED;
        }
    }

    @Override
    public boolean matches(String id, String aclExpr) {
        return id.equals(aclExpr);
    }
}
