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
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
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
 *
 * <p>Each request costs an RSA key generation and memory until answered, and any authenticated user can ask for
 * requests under ids of their choosing (issue 11). So a DN keeps at most {@link #MAX_PER_DN} pending requests: a
 * newer one evicts that DN's oldest (GridSite bounds nothing; evicting, not refusing, means a user whose clients
 * crashed mid-delegation is never locked out, and only ever harms their own pending requests). Key generations run
 * at most {@code max(1, cores / 2)} at a time; a request that cannot get a turn within {@link #GENERATION_WAIT} is
 * refused with a 503, so the door keeps CPU for its reads; and a DN makes at most as many as {@link RequestRates}
 * allows (429 beyond).
 */
final class ProxyRequests {
    private static final Logger LOG = LoggerFactory.getLogger(ProxyRequests.class);
    static final Duration LIFETIME = Duration.ofHours(1);
    static final int MAX_PER_DN = 8;
    static final Duration GENERATION_WAIT = Duration.ofSeconds(5);
    private static final int KEY_BITS = 2048;
    private static final String ID_PATTERN = "[A-Za-z0-9._-]{1,64}";
    /** Per DN, its pending requests by id, oldest first. */
    private final Map<String, LinkedHashMap<String, Pending>> pending = new ConcurrentHashMap<>();
    private final Semaphore generations;
    private final Duration generationWait;
    private final Clock clock;
    private final RequestRates rates;
    private final SecureRandom random = new SecureRandom();

    private record Pending(KeyPair keys, String csrPem, Instant created) {
    }

    ProxyRequests(Clock clock) {
        this(clock, Math.max(1, Runtime.getRuntime().availableProcessors() / 2), GENERATION_WAIT);
    }

    ProxyRequests(Clock clock, int concurrentGenerations, Duration generationWait) {
        this.clock = clock;
        this.rates = new RequestRates(clock);
        this.generations = new Semaphore(concurrentGenerations);
        this.generationWait = generationWait;
    }

    /** A new request for (dn, id), replacing any earlier one of that id; its PEM text. */
    String create(String dn, String id) throws DelegationException {
        rates.take(dn);
        Pending p = generate();
        pending.compute(dn, (key, ofDn) -> {
            LinkedHashMap<String, Pending> requests = ofDn == null ? new LinkedHashMap<>() : ofDn;
            requests.remove(id); // a replaced request becomes the newest
            requests.put(id, p);
            Iterator<String> oldest = requests.keySet().iterator();
            while (requests.size() > MAX_PER_DN) {
                String evicted = oldest.next();
                oldest.remove();
                LOG.info("{} has more than {} pending delegation requests: dropped the oldest, {}", dn, MAX_PER_DN, evicted);
            }
            return requests;
        });
        return p.csrPem();
    }

    private Pending generate() throws DelegationException {
        try {
            if (!generations.tryAcquire(generationWait.toMillis(), TimeUnit.MILLISECONDS)) {
                throw new DelegationException(503, "the door is busy making other certificate requests; retry in a few seconds");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new DelegationException(503, "interrupted while waiting to make a certificate request");
        }
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
            return new Pending(keys, text.toString(), clock.instant());
        } catch (GeneralSecurityException | OperatorCreationException | IOException e) {
            LOG.error("cannot make a certificate request: {}", e.toString());
            throw new DelegationException(500, "the door cannot make a certificate request");
        } finally {
            generations.release();
        }
    }

    /** The pending request of (dn, id) while it is younger than {@link #LIFETIME}, else a new one. */
    String current(String dn, String id) throws DelegationException {
        Pending p = find(dn, id);
        if (p != null && p.created().plus(LIFETIME).isAfter(clock.instant())) {
            return p.csrPem();
        }
        return create(dn, id);
    }

    private Pending find(String dn, String id) {
        Pending[] found = {null};
        pending.computeIfPresent(dn, (key, requests) -> {
            found[0] = requests.get(id);
            return requests;
        });
        return found[0];
    }

    /** The key pair of the request of (dn, id), until it is answered, destroyed, evicted or purged. */
    Optional<KeyPair> keysOf(String dn, String id) {
        return Optional.ofNullable(find(dn, id)).map(Pending::keys);
    }

    void remove(String dn, String id) {
        pending.computeIfPresent(dn, (key, requests) -> {
            requests.remove(id);
            return requests.isEmpty() ? null : requests;
        });
    }

    /** Forgets requests older than {@link #LIFETIME}, and the rates of DNs whose budget is whole again. */
    void purge() {
        rates.purge();
        Instant now = clock.instant();
        for (String dn : pending.keySet()) {
            pending.computeIfPresent(dn, (key, requests) -> {
                requests.values().removeIf(p -> !p.created().plus(LIFETIME).isAfter(now));
                return requests.isEmpty() ? null : requests;
            });
        }
    }

    int size() {
        return pending.values().stream().mapToInt(LinkedHashMap::size).sum();
    }

    int sizeOf(String dn) {
        int[] size = {0};
        pending.computeIfPresent(dn, (key, requests) -> {
            size[0] = requests.size();
            return requests;
        });
        return size[0];
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
