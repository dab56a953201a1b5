package org.gridcache.door.auth.macaroon;

import com.github.nitram509.jmacaroons.CaveatPacket;
import com.github.nitram509.jmacaroons.Macaroon;
import com.github.nitram509.jmacaroons.MacaroonsBuilder;
import com.github.nitram509.jmacaroons.MacaroonsVerifier;
import jakarta.servlet.http.HttpServletRequest;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.function.Supplier;
import java.util.regex.Pattern;
import org.gridcache.common.authz.Activity;
import org.gridcache.common.authz.Grants;
import org.gridcache.common.authz.PathGrant;
import org.gridcache.common.security.Authentication;
import org.gridcache.common.security.GridSubject;
import org.gridcache.door.auth.BearerVerifier;
import org.gridcache.door.exchange.DoorException;
import org.gridcache.zk.MacaroonSecrets;

/**
 * A bearer token that is one of this cluster's macaroons (it deserializes and its identifier is
 * {@code <key id>:<hex>}): its signature is checked with the root key it names, then every caveat must be known and
 * hold. The subject is the issuer's ({@code id:}, exactly one), bounded by each {@code path:} and each
 * {@code activity:} (every one narrows: a caveat a holder appends can never widen), usable only before each
 * {@code before:} (at least one; the earliest no further from now than {@code macaroon.max-validity} and no later than
 * the expiry of the credential it was minted with, which {@code id:} records) and only from an address of each
 * {@code ip:}; it may act with the issuer's delegation only when {@code id:} grants it and every {@code credential:}
 * says {@code gridsite}. Refusals are 401 with a reason that quotes no token. Third-party caveats are not supported
 * (refused).
 */
public final class MacaroonVerifier implements BearerVerifier {
    private static final Pattern IDENTIFIER = Pattern.compile("([A-Za-z0-9_-]{1,64}):[0-9a-f]{8,64}");
    private static final Set<Activity> ALL = Set.copyOf(EnumSet.allOf(Activity.class));
    private final MacaroonSecrets secrets;
    private final Supplier<Duration> maxValidity;
    private final Clock clock;

    /** {@code maxValidity}: {@code macaroon.max-validity}, read at each verification (it changes live). */
    public MacaroonVerifier(MacaroonSecrets secrets, Supplier<Duration> maxValidity, Clock clock) {
        this.secrets = secrets;
        this.maxValidity = maxValidity;
        this.clock = clock;
    }

    @Override
    public Optional<GridSubject> verify(String token, HttpServletRequest request) {
        Macaroon macaroon;
        try {
            macaroon = MacaroonsBuilder.deserialize(token);
        } catch (RuntimeException e) {
            return Optional.empty(); // not a macaroon: another verifier's
        }
        var identifier = macaroon.identifier == null ? null : IDENTIFIER.matcher(macaroon.identifier);
        if (identifier == null || !identifier.matches()) {
            return Optional.empty(); // a macaroon, but none of this cluster's making
        }
        MacaroonSecrets.RootKey key = secrets.key(identifier.group(1))
                .orElseThrow(() -> refused("its root key is unknown here (rotated away, or another cluster's)"));
        List<String> predicates = firstPartyCaveats(macaroon);
        if (!new MacaroonsVerifier(macaroon).satisfyGeneral(predicate -> true).isValid(key.secret())) {
            throw refused("does not verify");
        }
        return Optional.of(subject(predicates, request.getRemoteAddr(), macaroon.identifier));
    }

    /** The first-party caveats in order; a third-party one (a {@code vid} follows its {@code cid}) is refused. */
    private static List<String> firstPartyCaveats(Macaroon macaroon) {
        List<String> predicates = new ArrayList<>();
        for (CaveatPacket packet : macaroon.caveatPackets) {
            switch (packet.getType()) {
                case cid -> predicates.add(packet.getValueAsText());
                default -> throw refused("has a third-party caveat, which this door does not support");
            }
        }
        return predicates;
    }

    private GridSubject subject(List<String> predicates, String clientAddress, String identifier) {
        Instant now = clock.instant();
        IssuerIdentity issuer = null;
        Instant expires = null;
        boolean delegation = true;
        List<Grants> bounds = new ArrayList<>();
        for (String predicate : predicates) {
            Caveat caveat;
            try {
                caveat = Caveat.parse(predicate);
            } catch (IllegalArgumentException e) {
                throw refused("has a caveat this door does not understand: " + e.getMessage());
            }
            if (caveat instanceof Caveat.Id id) {
                if (issuer != null) {
                    throw refused("names its issuer twice (id:)");
                }
                try {
                    issuer = IssuerIdentity.parse(id.json());
                } catch (IllegalArgumentException e) {
                    throw refused(e.getMessage());
                }
            } else if (caveat instanceof Caveat.Before before) {
                if (!now.isBefore(before.instant())) {
                    throw refused("expired at " + before.instant());
                }
                expires = expires == null || before.instant().isBefore(expires) ? before.instant() : expires;
            } else if (caveat instanceof Caveat.Ip ip) {
                if (!ip.allows(clientAddress)) {
                    throw refused("is not valid from " + clientAddress);
                }
            } else if (caveat instanceof Caveat.Path path) {
                bounds.add(Grants.of(new PathGrant(ALL, path.path())));
            } else if (caveat instanceof Caveat.Activities activities) {
                // every activity needs a stat of its target first, as every storage scope allows one
                Set<Activity> allowed = EnumSet.copyOf(activities.activities());
                allowed.add(Activity.READ_METADATA);
                bounds.add(Grants.of(new PathGrant(allowed, "/")));
            } else if (caveat instanceof Caveat.Credential credential) {
                delegation &= credential.gridsite(); // one a holder appends can only take the grant away
            }
        }
        if (issuer == null) {
            throw refused("names no issuer (id:)");
        }
        if (expires == null) {
            throw refused("has no expiry (before:)");
        }
        checkLifetime(expires, issuer.expiry(), now);
        GridSubject subject = issuer.subject(Authentication.macaroon(identifier, expires, delegation && issuer.grantsDelegation()));
        for (Grants bound : bounds) {
            subject = subject.withCaveats(bound);
        }
        return subject;
    }

    /**
     * The caps of minting checked again: a macaroon lives at most {@code macaroon.max-validity} from now (as the
     * setting is now), and never past the expiry of the credential it was minted with.
     */
    private void checkLifetime(Instant expires, Instant credentialExpiry, Instant now) {
        Duration cap = maxValidity.get();
        if (expires.isAfter(now.plus(cap))) {
            throw refused("lives until " + expires + ", longer than macaroon.max-validity (" + cap + ") from now");
        }
        if (credentialExpiry != null && !now.isBefore(credentialExpiry)) {
            throw refused("was minted with a credential that expired at " + credentialExpiry);
        }
        if (credentialExpiry != null && expires.isAfter(credentialExpiry)) {
            throw refused("outlives the credential it was minted with (" + credentialExpiry + ")");
        }
    }

    private static DoorException refused(String why) {
        return new DoorException(401, "macaroon " + why);
    }
}
