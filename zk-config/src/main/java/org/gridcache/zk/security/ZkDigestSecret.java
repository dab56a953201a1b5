package org.gridcache.zk.security;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.framework.api.ACLProvider;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.ZooDefs.Perms;
import org.apache.zookeeper.data.ACL;
import org.apache.zookeeper.data.Id;
import org.apache.zookeeper.server.auth.DigestAuthenticationProvider;

/**
 * The secret of a standalone's ZooKeeper: ZooKeeper's {@code digest} credential {@value #USER}:<i>32 random bytes,
 * base64</i>, kept in {@code <home>/keys/zookeeper.secret} (0600, made on the first start). The standalone's door and
 * pool and the admin commands run with the same home present it ({@code addauth digest}), and every znode carries the
 * one ACL {@code digest:gridcache:<its hash>} with every right ({@link #acl()}): a local user without the file reads
 * and writes nothing.
 */
public final class ZkDigestSecret implements ZkClientCredential {
    static final String USER = "gridcache";
    private static final String SCHEME = "digest";
    private static final Set<PosixFilePermission> OWNER_ONLY = PosixFilePermissions.fromString("rw-------");
    private final String password;

    private ZkDigestSecret(String password) {
        this.password = password;
    }

    /** Where a standalone with home {@code home} keeps it. */
    public static Path file(Path home) {
        return home.resolve("keys").resolve("zookeeper.secret");
    }

    /** Reads the secret, creating it (0600, atomically: a reader never sees half a file) when the file is absent. */
    public static ZkDigestSecret loadOrCreate(Path file) throws IOException {
        Path absolute = file.toAbsolutePath();
        if (!Files.exists(absolute)) {
            Files.createDirectories(absolute.getParent());
            byte[] random = new byte[32];
            new SecureRandom().nextBytes(random);
            Path tmp = Files.createTempFile(absolute.getParent(), ".zookeeper", ".tmp", PosixFilePermissions.asFileAttribute(OWNER_ONLY));
            try {
                Files.writeString(tmp, Base64.getEncoder().encodeToString(random) + "\n", StandardCharsets.US_ASCII);
                Files.createLink(absolute, tmp);
            } catch (FileAlreadyExistsException e) {
                // made by another process meanwhile: use that one
            } finally {
                Files.deleteIfExists(tmp);
            }
        }
        return load(absolute);
    }

    /** The secret in {@code file}, if there is one; refused when others may read it. */
    public static Optional<ZkDigestSecret> loadIfPresent(Path file) throws IOException {
        return Files.exists(file) ? Optional.of(load(file)) : Optional.empty();
    }

    private static ZkDigestSecret load(Path file) throws IOException {
        Set<PosixFilePermission> mode = Files.getPosixFilePermissions(file);
        if (!OWNER_ONLY.containsAll(mode)) {
            throw new IOException("ZooKeeper secret " + file + " is readable by others (mode " + PosixFilePermissions.toString(mode)
                    + "): chmod 600 it");
        }
        String password = Files.readString(file, StandardCharsets.US_ASCII).trim();
        if (password.length() < 32 || !password.matches("[A-Za-z0-9+/=]+")) {
            throw new IOException("ZooKeeper secret " + file + " is not base64 of 32 random bytes");
        }
        return new ZkDigestSecret(password);
    }

    /** The one ACL of every znode: this secret's holder, every right. A mutable list, as ZooKeeper's client wants. */
    public List<ACL> acl() {
        try {
            String digest = DigestAuthenticationProvider.generateDigest(USER + ":" + password);
            return new ArrayList<>(List.of(new ACL(Perms.ALL, new Id(SCHEME, digest))));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("ZooKeeper's digest algorithm is missing: " + e.getMessage(), e);
        }
    }

    /**
     * Whether the ZooKeeper {@code client} (connected with this secret) is the one it locks: its root {@code /}
     * carries {@link #acl()}. An admin command run where a standalone's home lies may be aimed at another ZooKeeper,
     * where what it created with this ACL would be closed to that cluster's own nodes.
     */
    public boolean locks(CuratorFramework client) throws Exception {
        try {
            return client.usingNamespace(null).getACL().forPath("/").equals(acl());
        } catch (KeeperException.NoAuthException e) {
            return false;
        }
    }

    @Override
    public void configure(CuratorFrameworkFactory.Builder builder) {
        builder.authorization(SCHEME, (USER + ":" + password).getBytes(StandardCharsets.US_ASCII)).aclProvider(new ACLProvider() {
            @Override
            public List<ACL> getDefaultAcl() {
                return acl();
            }

            @Override
            public List<ACL> getAclForPath(String path) {
                return acl();
            }
        });
    }

    @Override
    public String describe() {
        return "";
    }

    @Override
    public String toString() {
        return "the ZooKeeper secret"; // never the secret
    }
}
