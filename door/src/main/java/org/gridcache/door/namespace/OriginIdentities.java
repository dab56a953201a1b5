package org.gridcache.door.namespace;

import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;
import org.gridcache.common.origin.CredentialMode;
import org.gridcache.common.origin.OriginEntry;
import org.gridcache.common.security.GridSubject;
import org.gridcache.door.exchange.DoorException;

/**
 * Decides who the door is towards an origin for a request of a subject ({@link OriginIdentity}): for an origin
 * mounted {@code --credential user}, the delegation the subject's session may act with (same DN, same VOMS
 * attributes); for an origin mounted {@code --credential token}, the bearer token the subject's request came with, as
 * the door's token vault keeps it; else the door itself. A user without such a delegation gets 401 with
 * {@code X-Delegate-To}, a door that cannot take delegations (no TLS) 403; a subject without a bearer token (X.509 or
 * anonymous) on a token mount 401 "this origin needs a bearer token".
 */
public final class OriginIdentities {
    /** A door without TLS: no delegations. */
    public static final OriginIdentities NONE = new OriginIdentities(s -> Optional.empty(), () -> null);
    private final Delegations delegations;
    private final Supplier<String> delegationEndpoint;
    private final Tokens tokens;

    /** Where the door keeps the bearer tokens it accepted. */
    @FunctionalInterface
    public interface Tokens {
        /** No tokens kept: a door without TLS, which accepts none. */
        Tokens NONE = subject -> Optional.empty();

        /** The token identity of {@code subject}'s request ({@link GridSubject#tokenRef()}), while the door keeps it. */
        Optional<OriginIdentity> of(GridSubject subject);
    }

    /** Where the door keeps delegations. */
    @FunctionalInterface
    public interface Delegations {
        /** The delegation a request of {@code subject} may act with (its DN and the FQANs of its session), if any. */
        Optional<OriginIdentity> of(GridSubject subject);
    }

    /** {@code delegationEndpoint}: where users delegate (null: this door takes no delegation). */
    public OriginIdentities(Delegations delegations, Supplier<String> delegationEndpoint) {
        this(delegations, delegationEndpoint, Tokens.NONE);
    }

    /** {@code tokens}: the bearer tokens the door accepted, for origins mounted {@code --credential token}. */
    public OriginIdentities(Delegations delegations, Supplier<String> delegationEndpoint, Tokens tokens) {
        this.delegations = delegations;
        this.delegationEndpoint = delegationEndpoint;
        this.tokens = tokens;
    }

    public OriginIdentity of(GridSubject subject, OriginEntry origin) {
        if (origin.credentialMode() == CredentialMode.TOKEN) {
            return tokenOf(subject, origin);
        }
        if (origin.credentialMode() != CredentialMode.USER) {
            return OriginIdentity.DOOR;
        }
        String endpoint = delegationEndpoint.get();
        if (endpoint == null) {
            throw DoorException.cannotTakeUserCredential(origin);
        }
        if (subject.anonymous()) {
            throw DoorException.delegateFirst(origin, "listed and read", endpoint);
        }
        if (subject.dn() == null) {
            throw DoorException.tokenCannotActAsUser(origin);
        }
        if (!subject.mayActWithDelegation()) {
            throw DoorException.delegationNotGranted(subject, "origin " + origin.name() + " (listed, read and written as the user)");
        }
        return delegations.of(subject).orElseThrow(() -> subject.fqans().isEmpty()
                ? DoorException.delegateFirst(origin, "listed and read", endpoint)
                : new DoorException(401, "origin " + origin.name() + " is listed and read with your own credential: delegate a proxy"
                        + " with the VOMS attributes of this session (" + String.join(",", subject.fqans()) + ") to " + endpoint
                        + " first", Map.of(DoorException.DELEGATE_TO, endpoint)));
    }

    private OriginIdentity tokenOf(GridSubject subject, OriginEntry origin) {
        if (subject.tokenRef() == null) {
            throw new DoorException(401, "this origin needs a bearer token: origin " + origin.name() + " is read and written"
                    + " with your own token (Authorization: Bearer)", Map.of("WWW-Authenticate", "Bearer"));
        }
        return tokens.of(subject).orElseThrow(() -> new DoorException(401, "your bearer token is no longer held by this door"
                + " (expired): send a valid token for origin " + origin.name(), Map.of("WWW-Authenticate", "Bearer")));
    }
}
