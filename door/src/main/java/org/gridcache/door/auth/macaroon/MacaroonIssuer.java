package org.gridcache.door.auth.macaroon;

import com.github.nitram509.jmacaroons.MacaroonsBuilder;
import java.security.SecureRandom;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.function.Supplier;
import org.gridcache.common.security.GridSubject;
import org.gridcache.door.exchange.DoorException;
import org.gridcache.zk.MacaroonSecrets;

/**
 * Makes a macaroon with the cluster's current root key: identifier {@code <key id>:<random>}, location the door's URL,
 * and the caveats {@code id:} (the issuer), {@code before:} (the validity asked for, by default a day, at most
 * {@code macaroon.max-validity} and never past the expiry of the credential it is minted with), {@code path:} (the request's path, or the narrower one asked for) and whatever
 * {@code activity:} and {@code ip:} were asked for. Serialized as dCache does (V1, base64url).
 */
public final class MacaroonIssuer {
    /** What a request without {@code validity} gets (if the cap allows). */
    static final Duration DEFAULT_VALIDITY = Duration.ofDays(1);
    private static final SecureRandom RANDOM = new SecureRandom();
    private final MacaroonSecrets secrets;
    private final Supplier<Duration> maxValidity;
    private final Clock clock;

    public MacaroonIssuer(MacaroonSecrets secrets, Supplier<Duration> maxValidity, Clock clock) {
        this.secrets = secrets;
        this.maxValidity = maxValidity;
        this.clock = clock;
    }

    /**
     * A macaroon made for {@code subject} at {@code path} ({@code location}: the door's URL); {@code capped}: its
     * {@code before:} is earlier than the validity asked for, as {@code why} says.
     */
    record Minted(String macaroon, Instant before, boolean capped, String why) {
    }

    Minted mint(GridSubject subject, String path, MacaroonRequest request, String location) {
        boolean delegation = request.asksForDelegation();
        if (delegation && !subject.mayActWithDelegation()) {
            throw new DoorException(403, "caveat credential:gridsite grants the proxy you delegated, which only a client that"
                    + " presents its own certificate or proxy can grant");
        }
        Instant now = clock.instant();
        Duration asked = request.validity().orElse(DEFAULT_VALIDITY);
        Instant before = now.plus(asked);
        String why = null;
        Instant cap = now.plus(maxValidity.get());
        if (before.isAfter(cap)) {
            before = cap;
            why = "macaroon.max-validity";
        }
        // a macaroon never outlives the credential it was minted with (an X.509 chain's notAfter, a token's exp)
        Instant credentialExpiry = subject.authentication().notAfter();
        if (credentialExpiry != null && before.isAfter(credentialExpiry)) {
            before = credentialExpiry;
            why = "the expiry of the credential it was minted with";
        }
        before = before.truncatedTo(ChronoUnit.MILLIS);
        List<Caveat> caveats = new ArrayList<>();
        caveats.add(new Caveat.Id(IssuerIdentity.of(subject, delegation).json()));
        caveats.add(new Caveat.Before(before));
        if (request.caveats().stream().noneMatch(Caveat.Path.class::isInstance)) {
            caveats.add(new Caveat.Path(path));
        }
        caveats.addAll(request.caveats());
        MacaroonSecrets.RootKey key = secrets.current();
        byte[] nonce = new byte[16];
        RANDOM.nextBytes(nonce);
        MacaroonsBuilder builder = new MacaroonsBuilder(location, key.secret(), key.id() + ":" + HexFormat.of().formatHex(nonce));
        caveats.forEach(c -> builder.add_first_party_caveat(c.predicate()));
        return new Minted(builder.getMacaroon().serialize(), before, why != null, why);
    }
}
