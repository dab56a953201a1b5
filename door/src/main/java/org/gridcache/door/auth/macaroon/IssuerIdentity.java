package org.gridcache.door.auth.macaroon;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import java.io.IOException;
import java.util.List;
import org.gridcache.common.Json;
import org.gridcache.common.authz.BearerIdentity;
import org.gridcache.common.authz.Grants;
import org.gridcache.common.security.GridSubject;

/**
 * Who a macaroon was issued to, as its {@code id:} caveat carries it (JSON): an X.509 subject's DN, VO, FQANs and
 * whether it was a limited proxy, or a bearer token's issuer and subject; a token's storage scopes and any caveats
 * that bounded the issuer. A macaroon acts as this subject, and today's policy is asked again at each use, so it can
 * only narrow what its issuer may do.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
record IssuerIdentity(@JsonProperty("dn") String dn, @JsonProperty("vo") String vo, @JsonProperty("fqans") List<String> fqans,
                      @JsonProperty("limited") boolean limited, @JsonProperty("iss") String iss, @JsonProperty("sub") String sub,
                      @JsonProperty("scopes") List<String> scopes, @JsonProperty("caveats") List<List<String>> caveats) {

    static IssuerIdentity of(GridSubject subject) {
        return new IssuerIdentity(subject.dn(), subject.vo(), subject.fqans().isEmpty() ? null : subject.fqans(), subject.limited(),
                subject.bearer() != null ? subject.bearer().issuer() : null, subject.bearer() != null ? subject.bearer().subject() : null,
                subject.scopes() != null ? subject.scopes().encode() : null,
                subject.caveats().isEmpty() ? null : subject.caveats().stream().map(Grants::encode).toList());
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
        return id;
    }

    GridSubject subject() {
        GridSubject subject = new GridSubject(dn, vo, fqans, limited, iss != null ? new BearerIdentity(iss, sub) : null,
                scopes != null ? Grants.decode(scopes) : null, List.of());
        for (List<String> bound : caveats != null ? caveats : List.<List<String>>of()) {
            subject = subject.withCaveats(Grants.decode(bound));
        }
        return subject;
    }
}
