package org.gridcache.common.authz;

import java.util.List;
import org.gridcache.common.security.GridSubject;

/**
 * What a ticket carries of the bearer token its subject came with, so that a pool can bound the read or write without
 * ever seeing the token: the token's identity ({@code bearer}, null for a macaroon of an X.509 user), its storage
 * {@code scopes} (null: none, the door's policy decided), a macaroon's {@code caveats}, and for an origin mounted
 * {@code --credential token} the SHA-256 of the token ({@code tokenRef}), under which the issuing door's vault hands the
 * token to the ticket's pool; {@code authentication}: how the subject authenticated, in audit's words ({@code token
 * <iss> <jti>}, {@code macaroon <id>}: {@link org.gridcache.common.security.Authentication}), never the token.
 * {@link #NONE}: an X.509 or anonymous subject, nothing to bound.
 */
public record TokenGrant(BearerIdentity bearer, Grants scopes, List<Grants> caveats, String tokenRef, String authentication) {
    public static final TokenGrant NONE = new TokenGrant(null, null, List.of(), null, null);

    public TokenGrant {
        caveats = caveats == null ? List.of() : List.copyOf(caveats);
    }

    /** A grant that does not say how its subject authenticated. */
    public TokenGrant(BearerIdentity bearer, Grants scopes, List<Grants> caveats, String tokenRef) {
        this(bearer, scopes, caveats, tokenRef, null);
    }

    /** What {@code subject} brings; {@code withTokenRef}: whether the ticket needs the token itself (a token origin). */
    public static TokenGrant of(GridSubject subject, boolean withTokenRef) {
        TokenGrant grant = new TokenGrant(subject.bearer(), subject.scopes(), subject.caveats(),
                withTokenRef ? subject.tokenRef() : null, null);
        return grant.equals(NONE) ? NONE : new TokenGrant(grant.bearer(), grant.scopes(), grant.caveats(), grant.tokenRef(),
                subject.authentication().toString());
    }

    /**
     * Whether scopes (when there are any) and every caveat allow {@code activity} on {@code path}: the pool's half of
     * {@link GridSubject#allows}, the door's policy having been asked when the ticket was issued.
     */
    public boolean allows(Activity activity, String path) {
        return (scopes == null || scopes.allows(activity, path)) && caveats.stream().allMatch(c -> c.allows(activity, path));
    }

    /** True when there is something to enforce: scopes or caveats. */
    public boolean bounds() {
        return scopes != null || !caveats.isEmpty();
    }

    public boolean isEmpty() {
        return equals(NONE);
    }

    /** Never the token, only whose it is and what it allows. */
    @Override
    public String toString() {
        return (bearer == null ? "no bearer" : bearer.name()) + (scopes == null ? "" : " scopes " + scopes)
                + (caveats.isEmpty() ? "" : " caveats " + caveats) + (tokenRef == null ? "" : " (token kept at the door)");
    }
}
