package org.gridcache.common;

import com.nimbusds.jose.JOSEException;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.JWSHeader;
import com.nimbusds.jose.JWSObject;
import com.nimbusds.jose.Payload;
import com.nimbusds.jose.crypto.MACSigner;
import com.nimbusds.jose.crypto.MACVerifier;
import java.text.ParseException;
import java.time.Clock;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Signs and verifies tickets as compact JWS (HS256, nimbus-jose-jwt). Doors sign, pools verify; both hold the same
 * key (see {@link TicketKey}). Verification checks signature, expiry, path, pool and operation, in that order, and
 * names the first failure.
 */
public final class TicketCodec {
    private final MACSigner signer;
    private final MACVerifier verifier;
    private final Clock clock;

    public TicketCodec(byte[] key) {
        this(key, Clock.systemUTC());
    }

    public TicketCodec(byte[] key, Clock clock) {
        try {
            this.signer = new MACSigner(key);
            this.verifier = new MACVerifier(key);
        } catch (JOSEException e) {
            throw new IllegalArgumentException("ticket key must be at least 256 bits", e);
        }
        this.clock = clock;
    }

    public String sign(Ticket ticket) {
        Map<String, Object> claims = new LinkedHashMap<>();
        claims.put("path", ticket.path());
        claims.put("pool", ticket.pool());
        claims.put("op", ticket.operation());
        claims.put("exp", ticket.expiresAt());
        claims.put("sub", ticket.subject());
        claims.put("door", ticket.door());
        claims.put("src", ticket.originUrl());
        claims.put("size", ticket.size());
        claims.put("mtime", ticket.mtime());
        claims.put("cred", ticket.credential().id());
        if (ticket.vo() != null) {
            claims.put("vo", ticket.vo());
            claims.put("fqans", ticket.fqans());
        }
        if (ticket.delegationId() != null) {
            claims.put("dlg", ticket.delegationId());
        }
        if (ticket.credentialUrl() != null) {
            claims.put("credurl", ticket.credentialUrl());
        }
        if (!ticket.peers().isEmpty()) {
            claims.put("peers", ticket.peers());
        }
        JWSObject jws = new JWSObject(new JWSHeader(JWSAlgorithm.HS256), new Payload(claims));
        try {
            jws.sign(signer);
        } catch (JOSEException e) {
            throw new IllegalStateException("cannot sign ticket", e);
        }
        return jws.serialize();
    }

    /** Parses and checks the signature and expiry only. */
    public Ticket verify(String token) throws TicketException {
        if (token == null || token.isEmpty()) {
            throw new TicketException("missing ticket: read through the door, which redirects with one");
        }
        JWSObject jws;
        try {
            jws = JWSObject.parse(token);
        } catch (ParseException e) {
            throw new TicketException("malformed ticket");
        }
        try {
            if (!JWSAlgorithm.HS256.equals(jws.getHeader().getAlgorithm()) || !jws.verify(verifier)) {
                throw new TicketException("ticket signature invalid (forged, or the door uses another ticket key)");
            }
        } catch (JOSEException e) {
            throw new TicketException("ticket signature invalid");
        }
        Ticket ticket;
        try {
            Map<String, Object> c = jws.getPayload().toJSONObject();
            ticket = new Ticket((String) c.get("path"), (String) c.get("pool"), (String) c.get("op"),
                    ((Number) c.get("exp")).longValue(), (String) c.get("sub"), (String) c.get("door"),
                    (String) c.get("src"), ((Number) c.get("size")).longValue(), ((Number) c.get("mtime")).longValue(),
                    (String) c.get("vo"), strings(c.get("fqans")), CredentialMode.parse((String) c.get("cred")), (String) c.get("dlg"),
                    (String) c.get("credurl"), strings(c.get("peers")));
        } catch (RuntimeException e) {
            throw new TicketException("malformed ticket claims");
        }
        if (clock.instant().getEpochSecond() >= ticket.expiresAt()) {
            throw new TicketException("ticket expired: ask the door again");
        }
        return ticket;
    }

    private static List<String> strings(Object value) {
        if (value == null) {
            return List.of();
        }
        List<String> out = new ArrayList<>();
        for (Object o : (List<?>) value) {
            out.add((String) o);
        }
        return out;
    }

    /** Full check for a pool: signature, expiry, then that it was issued for this path, this pool and this operation. */
    public Ticket verify(String token, String path, String pool, String operation) throws TicketException {
        Ticket ticket = verify(token);
        if (!path.equals(ticket.path())) {
            throw new TicketException("ticket was issued for another path");
        }
        if (!pool.equals(ticket.pool())) {
            throw new TicketException("ticket was issued for another pool");
        }
        if (!operation.equals(ticket.operation())) {
            throw new TicketException("ticket does not allow " + operation);
        }
        return ticket;
    }
}
