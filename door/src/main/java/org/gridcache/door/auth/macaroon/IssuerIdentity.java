package org.gridcache.door.auth.macaroon;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import java.io.IOException;
import java.time.Instant;
import java.util.List;
import org.gridcache.common.Json;
import org.gridcache.common.authz.BearerIdentity;
import org.gridcache.common.authz.Grants;
import org.gridcache.common.security.Authentication;
import org.gridcache.common.security.GridSubject;

/**
 * Who a macaroon was issued to, as its {@code id:} caveat carries it (JSON): an X.509 subject's DN, VO, FQANs and
 * whether it was a limited proxy, or a bearer token's issuer and subject; a token's storage scopes and any caveats
 * that bounded the issuer; when the credential it was minted with stops being valid ({@code exp}, which caps the
 * macaroon's {@code before:}), and whether the issuer granted its holder the issuer's delegation ({@code credential}:
 * {@code gridsite}, asked for as the caveat {@code credential:gridsite}). A macaroon acts as this subject, and today's
 * policy is asked again at each use, so it can only narrow what its issuer may do.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
record IssuerIdentity(@JsonProperty("dn") String dn, @JsonProperty("vo") String vo, @JsonProperty("fqans") List<String> fqans,
                      @JsonProperty("limited") boolean limited, @JsonProperty("iss") String iss, @JsonProperty("sub") String sub,
                      @JsonProperty("scopes") List<String> scopes, @JsonProperty("caveats") List<List<String>> caveats,
                      @JsonProperty("exp") String exp, @JsonProperty("credential") String credential) {

    /** {@code delegation}: the holder may act with the issuer's delegation. */
    static IssuerIdentity of(GridSubject subject, boolean delegation) {
        return new IssuerIdentity(subject.dn(), subject.vo(), subject.fqans().isEmpty() ? null : subject.fqans(), subject.limited(),
                subject.bearer() != null ? subject.bearer().issuer() : null, subject.bearer() != null ? subject.bearer().subject() : null,
                subject.scopes() != null ? subject.scopes().encode() : null,
                subject.caveats().isEmpty() ? null : subject.caveats().stream().map(Grants::encode).toList(),
                subject.authentication().notAfter() == null ? null : subject.authentication().notAfter().toString(), delegation ? Caveat.GRIDSITE : null);
    }

    /** When the credential the macaroon was minted with stopped being valid; null: unknown. */
    Instant expiry() {
        try {
            return exp == null ? null : Instant.parse(exp);
        } catch (java.time.format.DateTimeParseException e) {
            throw new IllegalArgumentException("its id caveat names no instant as exp");
        }
    }

    /** Whether the issuer granted the holder its delegation. */
    boolean grantsDelegation() {
        return Caveat.GRIDSITE.equals(credential);
    }

    String json() {
        return Json.string(this);
    }

    /** The identity an {@code id:} caveat holds, or an {@link IllegalArgumentException} (one line, no JSON quoted). */
    static IssuerIdentity parse(String json) {
        IssuerIdentity id;
        try {
            id = Json.mapper().readValue(json, IssuerIdentity.class);
        } catch (IOException e) {
            throw new IllegalArgumentException("its id caveat is not an identity");
        }
        if ((id.dn() == null) == (id.iss() == null || id.sub() == null)) {
            throw new IllegalArgumentException("its id caveat names neither a DN nor a token's issuer and subject");
        }
        id.expiry(); // a bad one refused now
        return id;
    }

    /** The issuer's subject as the macaroon's holder is it, authenticated {@code how}. */
    GridSubject subject(Authentication how) {
        GridSubject subject = new GridSubject(dn, vo, fqans, limited, iss != null ? new BearerIdentity(iss, sub) : null,
                scopes != null ? Grants.decode(scopes) : null, List.of(), null, how);
        for (List<String> bound : caveats != null ? caveats : List.<List<String>>of()) {
            subject = subject.withCaveats(Grants.decode(bound));
        }
        return subject;
    }
}
