package org.gridcache.zk.security;

import eu.emi.security.authn.x509.X509Credential;
import eu.emi.security.authn.x509.impl.OpensslNameUtils;
import eu.emi.security.authn.x509.impl.SocketFactoryCreator;
import eu.emi.security.authn.x509.proxy.ProxyUtils;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.security.cert.CertificateParsingException;
import java.security.cert.X509Certificate;
import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import javax.net.ssl.X509KeyManager;
import javax.net.ssl.X509TrustManager;
import javax.security.auth.x500.X500Principal;
import org.apache.zookeeper.common.ClientX509Util;
import org.apache.zookeeper.common.QuorumX509Util;
import org.apache.zookeeper.server.ServerCnxnFactory;
import org.apache.zookeeper.server.auth.ProviderRegistry;
import org.gridcache.common.security.GridTrust;

/**
 * A ZooKeeper server's grid security: its host credential, the CA directory it trusts, and who is an admin or a
 * cluster member. ZooKeeper configures TLS, its authentication providers and the quorum's SSL context through JVM-wide
 * system properties naming classes it instantiates itself, so {@link #install()} publishes this as the one instance of
 * the process ({@link #current()}) that those classes read: one secured ZooKeeper server per process.
 *
 * <p>Roles, decided once per connection from the certificate chain the client presented (a proxy chain counts as its
 * end-entity certificate): <b>admin</b>, a DN given with {@code --admin}; <b>member</b>, a door or a pool: a DN given
 * with {@code --member} or {@code --door}, or, when no {@code --member} is given, any host certificate (an end-entity
 * certificate that names a DNS name or an address in its subjectAltName, as the IGTF profile requires of host
 * certificates and forbids for personal ones) — never a proxy; <b>door</b>, may register in {@code /doors} and so
 * publish keys that pools accept tickets from: a DN given with {@code --door}, or, when none is given, every member —
 * never a proxy.
 *
 * <p>The server's host DN is no admin: the server's own client that creates the tree ({@link SecuredTree}) proves
 * itself with {@link #isTreeToken a secret} that never leaves this process, so a door or a pool run with the
 * ZooKeeper host's certificate is no more than a member.
 */
public final class ZkServerTls {
    private static volatile ZkServerTls current;
    private final X509Credential host;
    private final GridTrust trust;
    private final Set<X500Principal> admins;
    private final Set<X500Principal> members;
    private final Set<X500Principal> doors;
    private final byte[] treeToken = new byte[32];

    /**
     * @param memberDns empty: any host certificate is a member
     * @param doorDns empty: every member may register as a door (and publish ticket keys)
     */
    public ZkServerTls(X509Credential host, GridTrust trust, Collection<String> adminDns, Collection<String> memberDns,
            Collection<String> doorDns) {
        this.host = Objects.requireNonNull(host, "host");
        this.trust = Objects.requireNonNull(trust, "trust");
        this.admins = principals(adminDns);
        this.members = principals(memberDns);
        this.doors = principals(doorDns);
        new SecureRandom().nextBytes(treeToken);
    }

    private static Set<X500Principal> principals(Collection<String> dns) {
        Set<X500Principal> set = new LinkedHashSet<>();
        for (String dn : dns) {
            set.add(principal(dn));
        }
        return Set.copyOf(set);
    }

    /** A DN in the grid's slash form ({@code /DC=org/CN=Alice}) or in RFC 2253 form ({@code CN=Alice,DC=org}). */
    public static X500Principal principal(String dn) {
        String s = dn.trim();
        try {
            return new X500Principal(s.startsWith("/") ? OpensslNameUtils.opensslToRfc2253(s) : s);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("not a distinguished name: '" + dn + "'");
        }
    }

    /** Makes this the process's secured ZooKeeper configuration and points ZooKeeper's TLS at it. */
    public void install() {
        current = this;
        ClientX509Util util = new ClientX509Util();
        System.setProperty(ServerCnxnFactory.ZOOKEEPER_SERVER_CNXN_FACTORY, "org.apache.zookeeper.server.NettyServerCnxnFactory");
        System.setProperty(util.getSslAuthProviderProperty(), ZkAcls.X509);
        String x509 = ProviderRegistry.AUTHPROVIDER_PROPERTY_PREFIX + ZkAcls.X509;
        String roles = ProviderRegistry.AUTHPROVIDER_PROPERTY_PREFIX + ZkAcls.SCHEME;
        System.setProperty(x509, ZkCertificateAuthentication.class.getName());
        System.setProperty(roles, ZkRolePolicy.class.getName());
        // the registry reads these properties once; a process that touched it before must be told again
        ProviderRegistry.addOrUpdateProvider(x509);
        ProviderRegistry.addOrUpdateProvider(roles);
        try (QuorumX509Util quorum = new QuorumX509Util()) {
            System.setProperty(quorum.getSslContextSupplierClassProperty(), QuorumSslContext.class.getName());
        }
        util.close();
    }

    /**
     * Whether {@code authData} is the secret of this process's server, which only its own tree-creating client
     * ({@link SecuredTree}) presents ({@code addauth gridcache}); it makes that connection an admin.
     */
    static boolean isTreeToken(byte[] authData) {
        ZkServerTls tls = current;
        return tls != null && authData != null && MessageDigest.isEqual(tls.treeToken, authData);
    }

    byte[] treeToken() {
        return treeToken.clone();
    }

    static ZkServerTls current() {
        ZkServerTls tls = current;
        if (tls == null) {
            throw new IllegalStateException("no secured ZooKeeper configuration installed in this process");
        }
        return tls;
    }

    X509KeyManager keyManager() {
        return host.getKeyManager();
    }

    /** canl's validation of a peer's chain (CA directory, CRLs, signing policies, RFC 3820 proxies). */
    X509TrustManager trustManager() {
        return SocketFactoryCreator.getSSLTrustManager(trust.validator());
    }

    GridTrust trust() {
        return trust;
    }

    X509Credential host() {
        return host;
    }

    /** The roles the chain's end-entity certificate holds; the chain has been validated. */
    List<String> roles(X509Certificate[] chain) throws java.security.cert.CertificateException {
        X509Certificate endEntity = ProxyUtils.getEndUserCertificate(chain);
        X500Principal dn = endEntity.getSubjectX500Principal();
        boolean proxy = ProxyUtils.isProxy(chain);
        List<String> roles = new java.util.ArrayList<>();
        if (admins.contains(dn)) {
            roles.add(ZkAcls.ADMIN);
        }
        boolean door = !proxy && doors.contains(dn);
        boolean member = door || !proxy && (members.isEmpty() ? isHostCertificate(endEntity) : members.contains(dn));
        if (member) {
            roles.add(ZkAcls.MEMBER);
        }
        if (door || member && doors.isEmpty()) {
            roles.add(ZkAcls.DOOR);
        }
        return roles;
    }

    /** A certificate for a host: it names a DNS name or an IP address in its subjectAltName. */
    static boolean isHostCertificate(X509Certificate c) {
        try {
            Collection<List<?>> names = c.getSubjectAlternativeNames();
            return names != null && names.stream().anyMatch(n -> n.get(0) instanceof Integer type && (type == 2 || type == 7));
        } catch (CertificateParsingException e) {
            return false;
        }
    }
}
