package org.gridcache.door.delegation;

import eu.emi.security.authn.x509.X509Credential;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.security.cert.X509Certificate;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.function.Function;
import org.gridcache.common.Json;
import org.gridcache.common.security.GridCredentials;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Delegated credentials on disk, so that they survive a restart of the door: one JSON file per (DN, id) named by a
 * hash of both (a DN never shows in a file name), of mode 0600 in a directory of mode 0700, written to a temporary
 * file of mode 0600 and moved into place, so that no reader ever sees half a key and no key is ever in a file others
 * may read. Files of the earlier format ({@code <hash>.pem}: lines {@code dn=}, {@code id=}, {@code notAfter=} in
 * epoch seconds, then the PEM) and JSON files written before delegations carried their VOMS attributes are still
 * read: their attributes are taken from the stored chain, as for a new delegation, and the file is rewritten in the
 * current format when the door starts.
 */
final class DelegationFiles {
    private static final Logger LOG = LoggerFactory.getLogger(DelegationFiles.class);
    static final String SUFFIX = ".json";
    static final String LEGACY_SUFFIX = ".pem";
    private final Path dir;

    /**
     * One file ({@code notAfter} in ISO 8601; {@code fqans} null in files of an earlier version); the credential is the
     * PEM of certificate, private key (unencrypted: the file is 0600) and chain.
     */
    record Stored(String dn, String id, List<String> fqans, String notAfter, String credential) {
    }

    DelegationFiles(Path dir) throws IOException {
        this.dir = dir;
        Files.createDirectories(dir);
        Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwx------"));
    }

    /** Keeps {@code d} on disk; a failure is logged, and the credential lives on in memory only. */
    void write(Delegation d) {
        try {
            byte[] json = Json.bytes(new Stored(d.dn(), d.id(), d.fqans(), d.notAfter().toString(), GridCredentials.toPem(d.credential())));
            Path tmp = Files.createTempFile(dir, ".dlg", ".tmp", PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
            Files.write(tmp, json);
            try {
                Files.move(tmp, fileOf(d.dn(), d.id(), SUFFIX), StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            } catch (AtomicMoveNotSupportedException e) {
                Files.move(tmp, fileOf(d.dn(), d.id(), SUFFIX), StandardCopyOption.REPLACE_EXISTING);
            }
        } catch (IOException | RuntimeException e) {
            LOG.error("cannot keep delegation {} of {} on disk (kept in memory only): {}", d.id(), d.dn(), e.getMessage());
        }
    }

    void delete(String dn, String id) {
        try {
            Files.deleteIfExists(fileOf(dn, id, SUFFIX));
            Files.deleteIfExists(fileOf(dn, id, LEGACY_SUFFIX)); // left when its rewrite as JSON failed
        } catch (IOException e) {
            LOG.error("cannot delete the file of delegation {} of {}: {}", id, dn, e.getMessage());
        }
    }

    /**
     * The credentials still valid at {@code now}; the files of expired ones are deleted, unreadable ones skipped.
     * {@code fqansOf} gives the VOMS attributes of a chain, for files written before they were stored.
     */
    List<Delegation> load(Instant now, Function<X509Certificate[], List<String>> fqansOf) throws IOException {
        List<Delegation> out = new ArrayList<>();
        try (DirectoryStream<Path> files = Files.newDirectoryStream(dir, "*{" + SUFFIX + "," + LEGACY_SUFFIX + "}")) {
            for (Path f : files) {
                try {
                    boolean legacy = f.getFileName().toString().endsWith(LEGACY_SUFFIX);
                    Stored s = legacy ? readLegacy(f) : Json.read(Files.readAllBytes(f), Stored.class);
                    X509Credential credential = GridCredentials.fromPem(s.credential());
                    boolean migrate = legacy || s.fqans() == null;
                    Delegation d = new Delegation(s.dn(), s.id(),
                            migrate ? fqansOf.apply(credential.getCertificateChain()) : s.fqans(), credential,
                            Instant.parse(s.notAfter()));
                    if (!d.validAt(now)) {
                        Files.delete(f);
                        continue;
                    }
                    if (migrate) {
                        write(d);
                        if (legacy) {
                            Files.delete(f);
                        }
                    }
                    out.add(d);
                } catch (IOException | RuntimeException e) {
                    LOG.error("ignoring unreadable delegation file {}: {}", f, e.getMessage());
                }
            }
        }
        LOG.info("{} delegated credentials loaded from {}", out.size(), dir);
        return out;
    }

    private static Stored readLegacy(Path f) throws IOException {
        String[] lines = Files.readString(f, StandardCharsets.US_ASCII).split("\n", 4);
        String dn = lines[0].substring("dn=".length());
        String id = lines[1].substring("id=".length());
        Instant notAfter = Instant.ofEpochSecond(Long.parseLong(lines[2].substring("notAfter=".length())));
        return new Stored(dn, id, null, notAfter.toString(), lines[3]);
    }

    Path fileOf(String dn, String id, String suffix) {
        try {
            byte[] h = MessageDigest.getInstance("SHA-256").digest(Delegation.key(dn, id).getBytes(StandardCharsets.UTF_8));
            return dir.resolve(HexFormat.of().formatHex(h) + suffix);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }
}
