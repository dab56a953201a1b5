package org.gridcache.zk.security;

import eu.emi.security.authn.x509.X509Credential;
import eu.emi.security.authn.x509.impl.CertificateUtils;
import eu.emi.security.authn.x509.proxy.ProxyUtils;
import java.io.ByteArrayInputStream;
import java.io.Closeable;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.cert.X509Certificate;
import java.util.Base64;
import java.util.Comparator;
import java.util.List;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.zookeeper.ClientCnxnSocketNetty;
import org.apache.zookeeper.client.ZKClientConfig;
import org.apache.zookeeper.common.ClientX509Util;

/**
 * How a node (a door, a pool, an admin command) connects to a secured ZooKeeper: over TLS only, presenting its
 * credential — a host certificate, or an admin's proxy — and checking the server's against the CA directory, with
 * host name verification. ZooKeeper's client reads key and trust stores only from files, its PEM reader takes only
 * PKCS#8 keys and one bundle of CAs, while the grid layout has PKCS#1 keys and a hashed CA directory: so at start the
 * credential and the CAs are written, converted, into a private directory (0700, the key file 0600) that {@link #close}
 * deletes. Nobody converts anything by hand.
 */
public final class ZkClientTls implements ZkClientCredential, Closeable {
    /** {@code <hash>.<n>}: the certificates of an OpenSSL hashed CA directory (not CRLs, policies or links by MD5 hash). */
    private static final Pattern CA_FILE = Pattern.compile("[0-9a-f]{8}\\.[0-9]+");
    private final Path dir;
    private final String ownDn;
    private final ZKClientConfig config;

    private ZkClientTls(Path dir, String ownDn, ZKClientConfig config) {
        this.dir = dir;
        this.ownDn = ownDn;
        this.config = config;
    }

    public static ZkClientTls of(X509Credential credential, Path caDir) throws IOException {
        if (!Files.isDirectory(caDir)) {
            throw new IOException("CA directory " + caDir + " does not exist");
        }
        Path dir = Files.createTempDirectory("gridcache-zk-tls-", PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
        try {
            X509Certificate[] chain = credential.getCertificateChain();
            Path key = Files.createFile(dir.resolve("credential.pem"),
                    PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
            StringBuilder pem = new StringBuilder(pem("PRIVATE KEY", credential.getKey().getEncoded()));
            for (X509Certificate c : chain) {
                pem.append(pem("CERTIFICATE", c.getEncoded()));
            }
            Files.writeString(key, pem, StandardCharsets.US_ASCII);
            Path cas = dir.resolve("ca-bundle.pem");
            Files.writeString(cas, caBundle(caDir), StandardCharsets.US_ASCII);
            String ownDn = ProxyUtils.getEndUserCertificate(chain).getSubjectX500Principal().getName();
            return new ZkClientTls(dir, ownDn, config(key, cas));
        } catch (IOException | RuntimeException e) {
            delete(dir);
            throw e;
        } catch (java.security.GeneralSecurityException e) {
            delete(dir);
            throw new IOException("cannot prepare the ZooKeeper TLS credential: " + e.getMessage(), e);
        }
    }

    private static ZKClientConfig config(Path key, Path cas) {
        ZKClientConfig c = new ZKClientConfig();
        c.setProperty(ZKClientConfig.SECURE_CLIENT, "true");
        c.setProperty(ZKClientConfig.ZOOKEEPER_CLIENT_CNXN_SOCKET, ClientCnxnSocketNetty.class.getName());
        c.setProperty(ZKClientConfig.ENABLE_CLIENT_SASL_KEY, "false");
        try (ClientX509Util util = new ClientX509Util()) {
            c.setProperty(util.getSslKeystoreLocationProperty(), key.toString());
            c.setProperty(util.getSslKeystoreTypeProperty(), "PEM");
            c.setProperty(util.getSslTruststoreLocationProperty(), cas.toString());
            c.setProperty(util.getSslTruststoreTypeProperty(), "PEM");
        }
        return c;
    }

    /** Every CA certificate of the directory, one PEM bundle; fails when there is none. */
    static String caBundle(Path caDir) throws IOException {
        StringBuilder out = new StringBuilder();
        List<Path> files;
        try (Stream<Path> s = Files.list(caDir)) {
            files = s.filter(p -> CA_FILE.matcher(p.getFileName().toString()).matches()).sorted(Comparator.naturalOrder()).toList();
        }
        for (Path f : files) {
            for (X509Certificate c : CertificateUtils.loadCertificates(new ByteArrayInputStream(Files.readAllBytes(f)), CertificateUtils.Encoding.PEM)) {
                try {
                    out.append(pem("CERTIFICATE", c.getEncoded()));
                } catch (java.security.cert.CertificateEncodingException e) {
                    throw new IOException("cannot encode CA certificate " + f + ": " + e.getMessage(), e);
                }
            }
        }
        if (out.isEmpty()) {
            throw new IOException("no CA certificate (<hash>.0) in " + caDir);
        }
        return out.toString();
    }

    private static String pem(String type, byte[] der) {
        return "-----BEGIN " + type + "-----\n" + Base64.getMimeEncoder(64, new byte[] {'\n'}).encodeToString(der)
                + "\n-----END " + type + "-----\n";
    }

    /** The ZooKeeper client configuration: TLS with this credential. */
    public ZKClientConfig clientConfig() {
        return config;
    }

    /** The RFC 2253 DN of the end-entity certificate presented: the id that owns this node's records. */
    public String ownDn() {
        return ownDn;
    }

    public ZkAcls acls() {
        return new ZkAcls(ownDn);
    }

    @Override
    public void configure(CuratorFrameworkFactory.Builder builder) {
        builder.zkClientConfig(config).aclProvider(acls());
    }

    @Override
    public String describe() {
        return " over TLS";
    }

    @Override
    public void close() {
        delete(dir);
    }

    private static void delete(Path dir) {
        try (Stream<Path> files = Files.walk(dir)) {
            files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (IOException e) {
            // nothing left to do: the directory is private to this user
        }
    }
}
