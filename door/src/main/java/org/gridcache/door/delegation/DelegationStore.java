package org.gridcache.door.delegation;

import eu.emi.security.authn.x509.ValidationResult;
import eu.emi.security.authn.x509.X509Credential;
import eu.emi.security.authn.x509.proxy.ProxyUtils;
import java.io.IOException;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.security.cert.X509Certificate;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import javax.security.auth.x500.X500Principal;
import org.bouncycastle.openssl.jcajce.JcaPEMWriter;
import org.bouncycastle.operator.OperatorCreationException;
import org.bouncycastle.operator.jcajce.JcaContentSignerBuilder;
import org.bouncycastle.pkcs.PKCS10CertificationRequest;
import org.bouncycastle.pkcs.jcajce.JcaPKCS10CertificationRequestBuilder;
import org.gridcache.common.security.GridCredentials;
import org.gridcache.common.security.GridTrust;
import org.gridcache.common.security.X509Authenticator;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Delegated credentials, kept per (DN, delegation id). The flow is GridSite's: the door makes a key pair and hands
 * out a certificate request; the client signs it with its proxy and puts the resulting chain; the door checks that
 * the chain carries the key it made, validates it (canl) and that it belongs to the DN that put it, and keeps key
 * and chain until the chain expires or the client destroys it. Nothing of it goes to ZooKeeper; when a directory
 * is configured the credentials are also written there, one file of mode 0600 each, so they survive a restart.
 */
public final class DelegationStore implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(DelegationStore.class);
    /** A certificate request nobody answered is dropped after this long. */
    static final Duration REQUEST_LIFETIME = Duration.ofHours(1);
    private static final int KEY_BITS = 2048;
    private static final String ID_PATTERN = "[A-Za-z0-9._-]{1,64}";
    private final Map<String, Pending> pending = new ConcurrentHashMap<>();
    private final Map<String, Delegation> credentials = new ConcurrentHashMap<>();
    private final GridTrust trust;
    private final Path dir;
    private final Duration maxLifetime;
    private final Clock clock;
    private final SecureRandom random = new SecureRandom();

    /** A certificate request waiting for its signed chain. */
    private record Pending(String dn, String id, KeyPair keys, String csrPem, Instant created) {
    }

    /** A delegated credential. {@code notAfter} is when its chain expires. */
    public record Delegation(String dn, String id, X509Credential credential, Instant notAfter) {
        /** Never print the credential. */
        @Override
        public String toString() {
            return "delegation " + id + " of " + dn + " until " + notAfter;
        }
    }

    /** An operation the client may not do, with the one-line reason (maps to a SOAP fault or a 4xx). */
    public static final class DelegationException extends Exception {
        private static final long serialVersionUID = 1L;
        private final int status;

        DelegationException(int status, String reason) {
            super(reason, null, false, false);
            this.status = status;
        }

        public int status() {
            return status;
        }
    }

    public DelegationStore(GridTrust trust, Path dir, Duration maxLifetime, Clock clock) throws IOException {
        this.trust = trust;
        this.dir = dir;
        this.maxLifetime = maxLifetime;
        this.clock = clock;
        if (dir != null) {
            Files.createDirectories(dir);
            Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwx------"));
            load();
        }
    }

    /** getNewProxyReq: a new delegation id (the client's when it names one) and its certificate request. */
    public String[] newRequest(String dn, String wantedId) throws DelegationException {
        String id = wantedId == null || wantedId.isEmpty() ? newId() : checkId(wantedId);
        return new String[] {id, createRequest(dn, id).csrPem()};
    }

    /** getProxyReq: the pending request of this id, or a new one. */
    public String request(String dn, String id) throws DelegationException {
        checkId(id);
        Pending p = pending.get(key(dn, id));
        if (p != null && p.created().plus(REQUEST_LIFETIME).isAfter(clock.instant())) {
            return p.csrPem();
        }
        return createRequest(dn, id).csrPem();
    }

    /** renewProxyReq: a new request for an existing delegation (which stays usable until the new chain is put). */
    public String renewRequest(String dn, String id) throws DelegationException {
        checkId(id);
        if (get(dn, id).isEmpty()) {
            throw new DelegationException(404, "no delegation " + id + " to renew");
        }
        return createRequest(dn, id).csrPem();
    }

    /** putProxy: the chain signed by the client's proxy, for a request this door made for the same DN. */
    public Delegation put(String dn, String id, String chainPem) throws DelegationException {
        checkId(id);
        Pending p = pending.get(key(dn, id));
        if (p == null) {
            throw new DelegationException(400, "no certificate request for delegation " + id + ": ask for one first");
        }
        X509Certificate[] chain;
        try {
            chain = GridCredentials.certificatesFromPem(chainPem);
        } catch (IOException | RuntimeException e) {
            throw new DelegationException(400, "the delegated proxy is not a PEM certificate chain");
        }
        if (chain.length == 0) {
            throw new DelegationException(400, "the delegated proxy holds no certificate");
        }
        if (!chain[0].getPublicKey().equals(p.keys().getPublic())) {
            throw new DelegationException(400, "the delegated proxy does not carry the key of this door's request");
        }
        checkChain(chain);
        String owner = X509Authenticator.slashDn(ProxyUtils.getOriginalUserDN(Arrays.copyOfRange(chain, 1, chain.length)));
        if (!owner.equals(dn)) {
            throw new DelegationException(403, "the delegated proxy belongs to another identity");
        }
        Instant notAfter = notAfter(chain);
        if (Duration.between(clock.instant(), notAfter).compareTo(maxLifetime) > 0) {
            notAfter = clock.instant().plus(maxLifetime); // we forget it earlier than the chain would expire
        }
        Delegation d = new Delegation(dn, id, GridCredentials.of(p.keys().getPrivate(), chain), notAfter);
        pending.remove(key(dn, id));
        credentials.put(key(dn, id), d);
        persist(d);
        LOG.info("{} delegated credential {} until {}", dn, id, notAfter);
        String weakness = weakness(chain[0]);
        if (weakness != null) {
            LOG.warn("delegation {} of {} {}: origins on OpenSSL 3 (Apache mod_gridsite, Globus GridFTP) will refuse it,"
                    + " Java origins (canl) accept it; gridcache delegate signs RFC 3820 proxies with SHA-256",
                    id, dn, weakness);
        }
        return d;
    }

    private static final String RFC3820_PROXY_CERT_INFO = "1.3.6.1.5.5.7.1.14";

    /**
     * Why a delegated proxy as the client signed it will not pass OpenSSL 3, or null. Debian's htproxyput (gridsite
     * 3.0) makes such proxies: it looks for the pre-standard proxy extension in the signing chain, so under an RFC 3820
     * proxy it signs a plain certificate, and with SHA-1.
     */
    static String weakness(X509Certificate proxy) {
        boolean sha1 = proxy.getSigAlgName().toUpperCase(java.util.Locale.ROOT).contains("SHA1");
        boolean rfc = proxy.getExtensionValue(RFC3820_PROXY_CERT_INFO) != null;
        if (sha1 && !rfc) {
            return "is not an RFC 3820 proxy and is signed with SHA-1";
        }
        return sha1 ? "is signed with SHA-1" : !rfc ? "is not an RFC 3820 proxy" : null;
    }

    /**
     * The chain must be the caller's own valid chain (canl) with one new certificate on top: issued by the caller's
     * certificate (signature, names), for this request's key, inside the issuer's validity. The top certificate is
     * judged by hand because GridSite's clients (htproxyput) sign it without the RFC 3820 extension, which canl
     * would not take as a proxy; mod_gridsite origins accept such chains.
     */
    private void checkChain(X509Certificate[] chain) throws DelegationException {
        if (chain.length < 2) {
            throw new DelegationException(400, "the delegated proxy comes without the chain that signed it");
        }
        ValidationResult valid = trust.validator().validate(Arrays.copyOfRange(chain, 1, chain.length));
        if (!valid.isValid()) {
            String why = valid.getErrors().isEmpty() ? "invalid chain" : valid.getErrors().get(0).getMessage();
            throw new DelegationException(400, "the delegated proxy does not validate: " + why.lines().findFirst().orElse(""));
        }
        X509Certificate top = chain[0];
        X509Certificate issuer = chain[1];
        try {
            top.verify(issuer.getPublicKey());
            top.checkValidity();
        } catch (GeneralSecurityException e) {
            throw new DelegationException(400, "the delegated proxy is not signed by its chain, or not valid now");
        }
        if (!top.getIssuerX500Principal().equals(issuer.getSubjectX500Principal())
                || !X509Authenticator.slashDn(top.getSubjectX500Principal()).startsWith(X509Authenticator.slashDn(issuer.getSubjectX500Principal()) + "/CN=")
                || top.getNotAfter().after(issuer.getNotAfter())) {
            throw new DelegationException(400, "the delegated proxy is not a proxy of the chain that signed it");
        }
    }

    public Optional<Delegation> get(String dn, String id) {
        Delegation d = credentials.get(key(dn, id));
        return d != null && d.notAfter().isAfter(clock.instant()) ? Optional.of(d) : Optional.empty();
    }

    /** The delegation of this DN that lasts longest, if any is still valid. */
    public Optional<Delegation> freshest(String dn) {
        Instant now = clock.instant();
        return credentials.values().stream().filter(d -> d.dn().equals(dn) && d.notAfter().isAfter(now))
                .max(Comparator.comparing(Delegation::notAfter));
    }

    public List<Delegation> of(String dn) {
        Instant now = clock.instant();
        return credentials.values().stream().filter(d -> d.dn().equals(dn) && d.notAfter().isAfter(now))
                .sorted(Comparator.comparing(Delegation::id)).toList();
    }

    public Instant terminationTime(String dn, String id) throws DelegationException {
        return get(dn, id).orElseThrow(() -> new DelegationException(404, "no delegation " + id)).notAfter();
    }

    /** destroy: forgets the credential (and its file) and any pending request of this id. */
    public boolean destroy(String dn, String id) {
        pending.remove(key(dn, id));
        Delegation d = credentials.remove(key(dn, id));
        unpersist(dn, id);
        if (d != null) {
            LOG.info("{} destroyed delegation {}", dn, id);
        }
        return d != null;
    }

    /** Forgets expired credentials and stale requests; run periodically. */
    public void purge() {
        Instant now = clock.instant();
        for (Delegation d : new ArrayList<>(credentials.values())) {
            if (!d.notAfter().isAfter(now) && credentials.remove(key(d.dn(), d.id()), d)) {
                unpersist(d.dn(), d.id());
                LOG.info("delegation {} of {} expired and was purged", d.id(), d.dn());
            }
        }
        pending.values().removeIf(p -> !p.created().plus(REQUEST_LIFETIME).isAfter(now));
    }

    int size() {
        return credentials.size();
    }

    @Override
    public void close() {
        pending.clear();
        credentials.clear();
    }

    private Pending createRequest(String dn, String id) throws DelegationException {
        try {
            KeyPairGenerator generator = KeyPairGenerator.getInstance("RSA");
            generator.initialize(KEY_BITS, random);
            KeyPair keys = generator.generateKeyPair();
            PKCS10CertificationRequest csr = new JcaPKCS10CertificationRequestBuilder(new X500Principal("CN=proxy"), keys.getPublic())
                    .build(new JcaContentSignerBuilder("SHA256withRSA").build(keys.getPrivate()));
            StringWriter text = new StringWriter();
            try (JcaPEMWriter pem = new JcaPEMWriter(text)) {
                pem.writeObject(csr);
            }
            Pending p = new Pending(dn, id, keys, text.toString(), clock.instant());
            pending.put(key(dn, id), p);
            return p;
        } catch (GeneralSecurityException | OperatorCreationException | IOException e) {
            LOG.error("cannot make a certificate request: {}", e.toString());
            throw new DelegationException(500, "the door cannot make a certificate request");
        }
    }

    private String newId() {
        byte[] b = new byte[8];
        random.nextBytes(b);
        return HexFormat.of().formatHex(b);
    }

    static String checkId(String id) throws DelegationException {
        if (id == null || !id.matches(ID_PATTERN)) {
            throw new DelegationException(400, "a delegation id is 1 to 64 letters, digits, '.', '_' or '-'");
        }
        return id;
    }

    private static String key(String dn, String id) {
        return dn + "\n" + id;
    }

    private static Instant notAfter(X509Certificate[] chain) {
        Instant min = Instant.MAX;
        for (X509Certificate c : chain) {
            Instant t = c.getNotAfter().toInstant();
            if (t.isBefore(min)) {
                min = t;
            }
        }
        return min;
    }

    // --- persistence: one file per credential, mode 0600, named by a hash of (DN, id) ---

    private Path fileOf(String dn, String id) {
        try {
            byte[] h = MessageDigest.getInstance("SHA-256").digest(key(dn, id).getBytes(StandardCharsets.UTF_8));
            return dir.resolve(HexFormat.of().formatHex(h) + ".pem");
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }

    private void persist(Delegation d) {
        if (dir == null) {
            return;
        }
        try {
            String text = "dn=" + d.dn() + "\nid=" + d.id() + "\nnotAfter=" + d.notAfter().getEpochSecond() + "\n"
                    + GridCredentials.toPem(d.credential());
            Path tmp = Files.createTempFile(dir, ".dlg", ".tmp", PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
            Files.writeString(tmp, text, StandardCharsets.US_ASCII);
            try {
                Files.move(tmp, fileOf(d.dn(), d.id()), StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            } catch (AtomicMoveNotSupportedException e) {
                Files.move(tmp, fileOf(d.dn(), d.id()), StandardCopyOption.REPLACE_EXISTING);
            }
        } catch (IOException e) {
            LOG.error("cannot keep delegation {} of {} on disk (kept in memory only): {}", d.id(), d.dn(), e.getMessage());
        }
    }

    private void unpersist(String dn, String id) {
        if (dir == null) {
            return;
        }
        try {
            Files.deleteIfExists(fileOf(dn, id));
        } catch (IOException e) {
            LOG.error("cannot delete the file of delegation {} of {}: {}", id, dn, e.getMessage());
        }
    }

    private void load() throws IOException {
        try (DirectoryStream<Path> files = Files.newDirectoryStream(dir, "*.pem")) {
            for (Path f : files) {
                try {
                    String text = Files.readString(f, StandardCharsets.US_ASCII);
                    String[] lines = text.split("\n", 4);
                    String dn = lines[0].substring("dn=".length());
                    String id = lines[1].substring("id=".length());
                    Instant notAfter = Instant.ofEpochSecond(Long.parseLong(lines[2].substring("notAfter=".length())));
                    if (!notAfter.isAfter(clock.instant())) {
                        Files.delete(f);
                        continue;
                    }
                    credentials.put(key(dn, id), new Delegation(dn, id, GridCredentials.fromPem(lines[3]), notAfter));
                } catch (IOException | RuntimeException e) {
                    LOG.error("ignoring unreadable delegation file {}: {}", f, e.getMessage());
                }
            }
        }
        LOG.info("{} delegated credentials loaded from {}", credentials.size(), dir);
    }
}
