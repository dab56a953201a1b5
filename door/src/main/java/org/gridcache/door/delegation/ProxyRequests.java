package org.gridcache.door.delegation;

import java.io.IOException;
import java.io.StringWriter;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.SecureRandom;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.HexFormat;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import javax.security.auth.x500.X500Principal;
import org.bouncycastle.openssl.jcajce.JcaPEMWriter;
import org.bouncycastle.operator.OperatorCreationException;
import org.bouncycastle.operator.jcajce.JcaContentSignerBuilder;
import org.bouncycastle.pkcs.PKCS10CertificationRequest;
import org.bouncycastle.pkcs.jcajce.JcaPKCS10CertificationRequestBuilder;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The first half of GridSite delegation: certificate requests awaiting their signed proxy, per (DN, delegation id).
 * The door makes the key pair, so the private key of a delegated credential never travels; the client only ever
 * sees the request. A request nobody answers is dropped after {@link #LIFETIME}.
 */
final class ProxyRequests {
    private static final Logger LOG = LoggerFactory.getLogger(ProxyRequests.class);
    static final Duration LIFETIME = Duration.ofHours(1);
    private static final int KEY_BITS = 2048;
    private static final String ID_PATTERN = "[A-Za-z0-9._-]{1,64}";
    private final Map<String, Pending> pending = new ConcurrentHashMap<>();
    private final Clock clock;
    private final SecureRandom random = new SecureRandom();

    private record Pending(KeyPair keys, String csrPem, Instant created) {
    }

    ProxyRequests(Clock clock) {
        this.clock = clock;
    }

    /** A new request for (dn, id), replacing any earlier one of that id; its PEM text. */
    String create(String dn, String id) throws DelegationException {
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
            pending.put(Delegation.key(dn, id), new Pending(keys, text.toString(), clock.instant()));
            return text.toString();
        } catch (GeneralSecurityException | OperatorCreationException | IOException e) {
            LOG.error("cannot make a certificate request: {}", e.toString());
            throw new DelegationException(500, "the door cannot make a certificate request");
        }
    }

    /** The pending request of (dn, id) while it is younger than {@link #LIFETIME}, else a new one. */
    String current(String dn, String id) throws DelegationException {
        Pending p = pending.get(Delegation.key(dn, id));
        if (p != null && p.created().plus(LIFETIME).isAfter(clock.instant())) {
            return p.csrPem();
        }
        return create(dn, id);
    }

    /** The key pair of the request of (dn, id), until it is answered, destroyed or purged. */
    Optional<KeyPair> keysOf(String dn, String id) {
        return Optional.ofNullable(pending.get(Delegation.key(dn, id))).map(Pending::keys);
    }

    void remove(String dn, String id) {
        pending.remove(Delegation.key(dn, id));
    }

    /** Forgets requests older than {@link #LIFETIME}. */
    void purge() {
        Instant now = clock.instant();
        pending.values().removeIf(p -> !p.created().plus(LIFETIME).isAfter(now));
    }

    int size() {
        return pending.size();
    }

    void clear() {
        pending.clear();
    }

    /** A fresh delegation id, for a client that names none. */
    String newId() {
        byte[] b = new byte[8];
        random.nextBytes(b);
        return HexFormat.of().formatHex(b);
    }

    /** {@code id} when it is a valid delegation id; ids become parts of URLs and keys, so the alphabet is small. */
    static String checkId(String id) throws DelegationException {
        if (id == null || !id.matches(ID_PATTERN)) {
            throw new DelegationException(400, "a delegation id is 1 to 64 letters, digits, '.', '_' or '-'");
        }
        return id;
    }
}
