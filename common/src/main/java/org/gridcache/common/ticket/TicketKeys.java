package org.gridcache.common.ticket;

import org.gridcache.common.Json;
import com.nimbusds.jose.JOSEException;
import com.nimbusds.jose.jwk.Curve;
import com.nimbusds.jose.jwk.JWK;
import com.nimbusds.jose.jwk.OctetKeyPair;
import com.fasterxml.jackson.core.type.TypeReference;
import java.io.IOException;
import java.nio.file.Path;
import java.text.ParseException;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The public ticket keys a node trusts, each bound to the one issuer that publishes it: a door's id for the keys in
 * its {@code /doors/<id>} record, {@code pool:<name>} for the key in a pool's {@code /pools/<name>} record. A ticket
 * verifies only with a key of the issuer it names, so a pool's key never verifies a door's ticket.
 */
@FunctionalInterface
public interface TicketKeys {
    /** The Ed25519 public key {@code kid} of {@code issuer}, or null when that issuer publishes no such key now. */
    byte[] publicKey(String issuer, String kid);

    /** The keys of one issuer. */
    static TicketKeys of(String issuer, List<TicketSigningKey> keys) {
        Map<String, byte[]> byKid = new HashMap<>();
        for (TicketSigningKey k : keys) {
            byKid.put(k.kid(), k.publicKey());
        }
        return (who, kid) -> issuer.equals(who) ? byKid.get(kid) : null;
    }

    /** The first of {@code sources} that knows the key. */
    static TicketKeys anyOf(TicketKeys... sources) {
        return (issuer, kid) -> {
            for (TicketKeys s : sources) {
                byte[] k = s.publicKey(issuer, kid);
                if (k != null) {
                    return k;
                }
            }
            return null;
        };
    }

    /**
     * Doors' public keys from a file, for sites that prefer files to ZooKeeper: a JSON object of door id to the list
     * of its public JWKs, as each door publishes them in {@code /doors/<id>} ({@code ticketKeys}). Throws
     * {@link IOException} naming the first unusable entry.
     */
    static TicketKeys fromFile(Path file) throws IOException {
        Map<String, Map<String, byte[]>> byDoor = new HashMap<>();
        Map<String, List<Map<String, Object>>> doors;
        try {
            doors = Json.mapper().readValue(file.toFile(), new TypeReference<Map<String, List<Map<String, Object>>>>() { });
        } catch (IOException e) {
            throw new IOException("door keys " + file + " are not a JSON object of door id to a list of JWKs");
        }
        for (Map.Entry<String, List<Map<String, Object>>> door : doors.entrySet()) {
            if (door.getKey().startsWith(Ticket.POOL_ISSUER)) {
                throw new IOException("door keys " + file + ": " + door.getKey() + " is not a door");
            }
            Map<String, byte[]> byKid = new HashMap<>();
            for (Map<String, Object> jwk : door.getValue()) {
                try {
                    Published key = parsePublished(jwk);
                    byKid.put(key.kid(), key.publicKey());
                } catch (IllegalArgumentException e) {
                    throw new IOException("door keys " + file + ", door " + door.getKey() + ": " + e.getMessage());
                }
            }
            byDoor.put(door.getKey(), Map.copyOf(byKid));
        }
        return (issuer, kid) -> {
            Map<String, byte[]> keys = byDoor.get(issuer);
            return keys == null ? null : keys.get(kid);
        };
    }

    /**
     * A published public JWK: an Ed25519 key ({@code kty} OKP) without its private part, whose {@code kid} is its
     * RFC 7638 thumbprint (so a record cannot name another key's id). Throws {@link IllegalArgumentException}.
     */
    static Published parsePublished(Map<String, Object> jwk) {
        if (jwk == null) {
            throw new IllegalArgumentException("a ticket key is a JWK object, not null");
        }
        for (String member : PRIVATE_MEMBERS) {
            if (jwk.containsKey(member)) {
                // checked before parsing so that no parser's message can echo the secret
                throw new IllegalArgumentException("a published ticket key holds a private part (\"" + member
                        + "\", not printed): that key is exposed to every reader and must be replaced");
            }
        }
        try {
            JWK parsed = JWK.parse(jwk);
            if (!(parsed instanceof OctetKeyPair okp) || !Curve.Ed25519.equals(okp.getCurve())) {
                throw new IllegalArgumentException("not an Ed25519 key");
            }
            if (okp.isPrivate()) {
                throw new IllegalArgumentException("a published ticket key holds its private part");
            }
            String thumbprint = okp.computeThumbprint().toString();
            if (!thumbprint.equals(okp.getKeyID())) {
                throw new IllegalArgumentException("kid is not the key's thumbprint");
            }
            byte[] x = okp.getX().decode();
            if (x.length != 32) {
                throw new IllegalArgumentException("not an Ed25519 public key");
            }
            return new Published(thumbprint, x);
        } catch (ParseException | JOSEException e) {
            throw new IllegalArgumentException("malformed JWK: " + e.getMessage());
        }
    }

    /** The JWK members (RFC 7518 section 6) that hold a private or symmetric key: never in a published key. */
    List<String> PRIVATE_MEMBERS = List.of("d", "p", "q", "dp", "dq", "qi", "oth", "k");

    /** A public key as published: its id and its 32 bytes. */
    record Published(String kid, byte[] publicKey) {
    }
}
