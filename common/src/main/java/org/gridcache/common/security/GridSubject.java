package org.gridcache.common.security;

import java.util.ArrayList;
import java.util.List;
import java.util.function.BooleanSupplier;
import org.gridcache.common.authz.Activity;
import org.gridcache.common.authz.BearerIdentity;
import org.gridcache.common.authz.Grants;

/**
 * Who a request acts for, and what bounds it beyond the door's policy.
 *
 * <p>An X.509 client: the grid identity (the end entity's DN in the OpenSSL slash form that grid policy files use,
 * {@code /DC=org/DC=example/CN=Alice}), the VO and FQANs of a valid VOMS attribute certificate (none without one),
 * and whether the client presented a limited proxy. A bearer-token client: {@code bearer} (issuer and subject), no
 * DN; its {@code wlcg.groups}, mapped, stand in {@code fqans} so that the policy's {@code fqan:} rules name them.
 * {@link #ANONYMOUS} has neither.
 *
 * <p>{@code scopes}: a token's storage scopes; when present they alone decide (the policy is not asked), as WLCG's
 * profile says. {@code caveats}: a macaroon's restrictions, each of which must also allow; a macaroon carries the
 * subject of the user it was issued to, so it can only narrow that user's rights.
 *
 * <p>{@code tokenRef}: the SHA-256 (hex) of the bearer token the request came with, as the door's token vault keeps
 * it, for origins mounted {@code --credential token}, which are sent the user's own token; null without one. A hash,
 * so that the subject can be logged and put in tickets without the token.
 *
 * <p>{@code authentication}: how the client authenticated ({@link Authentication}): what audit records, when the
 * credential stops being valid, and whether the subject may act with its DN's delegation.
 */
public record GridSubject(String dn, String vo, List<String> fqans, boolean limited, BearerIdentity bearer, Grants scopes,
                          List<Grants> caveats, String tokenRef, Authentication authentication) {
    public static final GridSubject ANONYMOUS = new GridSubject(null, null, List.of(), false);
    public static final String ANONYMOUS_NAME = "anonymous";

    public GridSubject {
        fqans = fqans == null ? List.of() : List.copyOf(fqans);
        caveats = caveats == null ? List.of() : List.copyOf(caveats);
        if (authentication == null) {
            authentication = bearer != null ? Authentication.token(bearer.issuer(), null, null)
                    : dn != null ? Authentication.CERTIFICATE : Authentication.NONE;
        }
    }

    /** A subject authenticated as its DN or bearer say (a certificate, a token), of unknown expiry. */
    public GridSubject(String dn, String vo, List<String> fqans, boolean limited, BearerIdentity bearer, Grants scopes,
                       List<Grants> caveats, String tokenRef) {
        this(dn, vo, fqans, limited, bearer, scopes, caveats, tokenRef, null);
    }

    /** A subject without a kept token. */
    public GridSubject(String dn, String vo, List<String> fqans, boolean limited, BearerIdentity bearer, Grants scopes,
                       List<Grants> caveats) {
        this(dn, vo, fqans, limited, bearer, scopes, caveats, null);
    }

    /** An X.509 subject. */
    public GridSubject(String dn, String vo, List<String> fqans, boolean limited) {
        this(dn, vo, fqans, limited, null, null, List.of());
    }

    public static GridSubject of(String dn) {
        return new GridSubject(dn, null, List.of(), false);
    }

    /** A bearer token's subject: its groups as FQANs, its storage scopes (null: none, the policy decides). */
    public static GridSubject ofToken(BearerIdentity bearer, List<String> groups, Grants scopes) {
        return new GridSubject(null, null, groups, false, bearer, scopes, List.of());
    }

    /** This subject further bound by {@code more} (a macaroon's caveats). */
    public GridSubject withCaveats(Grants more) {
        List<Grants> all = new ArrayList<>(caveats);
        all.add(more);
        return new GridSubject(dn, vo, fqans, limited, bearer, scopes, all, tokenRef, authentication);
    }

    /** This subject with the vault's reference to the token it came with. */
    public GridSubject withTokenRef(String ref) {
        return new GridSubject(dn, vo, fqans, limited, bearer, scopes, caveats, ref, authentication);
    }

    /** This subject as authenticated by {@code how}. */
    public GridSubject authenticatedBy(Authentication how) {
        return new GridSubject(dn, vo, fqans, limited, bearer, scopes, caveats, tokenRef, how);
    }

    public boolean anonymous() {
        return dn == null && bearer == null;
    }

    /**
     * True when the client presented its certificate or proxy itself: a DN and no bearer token. A macaroon issued to
     * an X.509 user carries that user's DN too, bounded by its caveats (at least its path), so a DN alone does not say
     * that the request holds the user's key.
     */
    public boolean presentedCertificate() {
        return dn != null && authentication.is(Authentication.X509) && caveats.isEmpty() && tokenRef == null;
    }

    /**
     * Whether a pool or the door may act for this subject with the proxy its DN delegated: a client that presented
     * its certificate, or a macaroon whose issuer granted it ({@code credential:gridsite}) or whose request also
     * presented a certificate of the same DN ({@link Authentication#delegation()}); never a bearer token's
     * subject, which has no DN.
     */
    public boolean mayActWithDelegation() {
        return dn != null && authentication.delegation() && (presentedCertificate() || authentication.is(Authentication.MACAROON));
    }

    /**
     * Whether this subject may do {@code activity} on {@code path}: by its token's scopes when it has any, else by
     * {@code policy} (the door's policy file's verdict, asked only then); and by every caveat.
     */
    public boolean allows(Activity activity, String path, BooleanSupplier policy) {
        boolean granted = scopes != null ? scopes.allows(activity, path) : policy.getAsBoolean();
        return granted && caveats.stream().allMatch(c -> c.allows(activity, path));
    }

    /** The DN, the token's {@code token:<sub>@<iss>}, or "anonymous": for tickets, lock owners and log lines. */
    public String name() {
        if (dn != null) {
            return dn;
        }
        return bearer != null ? bearer.name() : ANONYMOUS_NAME;
    }

    /** One line for logs: the name, then VO and FQANs, scopes and caveats when there are any. */
    @Override
    public String toString() {
        StringBuilder line = new StringBuilder(name());
        if (vo != null) {
            line.append(" (vo ").append(vo).append(", fqans ").append(String.join(",", fqans)).append(')');
        } else if (bearer != null && !fqans.isEmpty()) {
            line.append(" (groups ").append(String.join(",", fqans)).append(')');
        }
        if (scopes != null) {
            line.append(" (scopes ").append(scopes).append(')');
        }
        if (!caveats.isEmpty()) {
            line.append(" (caveats ").append(caveats.stream().map(Grants::toString).toList()).append(')');
        }
        if (!anonymous()) {
            line.append(" via ").append(authentication);
        }
        return line.toString();
    }
}
