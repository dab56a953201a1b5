package org.gridcache.door;

import eu.emi.security.authn.x509.X509Credential;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Set;
import org.gridcache.common.security.GridTrust;
import org.gridcache.door.auth.AuthzPolicy;

/**
 * How a door secures itself. With a host credential and trust it speaks HTTPS, authenticates clients by X.509
 * certificate or proxy (VOMS attributes included), serves the delegation endpoint, and hands delegated credentials
 * to the pools whose host DNs are in {@code poolIdentities}. Without, it speaks plain HTTP and everyone is
 * anonymous. {@code authz} is the policy file (null: the default of the mode, see {@link AuthzPolicy}).
 * {@code delegationDir}, when set, keeps delegated credentials across restarts (files of mode 0600).
 */
public record DoorSecurity(X509Credential hostCredential, GridTrust trust, Path authz, Path delegationDir,
                           Set<String> poolIdentities, Duration maxDelegationLifetime) {

    public DoorSecurity {
        poolIdentities = poolIdentities == null ? Set.of() : Set.copyOf(poolIdentities);
        maxDelegationLifetime = maxDelegationLifetime == null ? Duration.ofDays(7) : maxDelegationLifetime;
        if ((hostCredential == null) != (trust == null)) {
            throw new IllegalArgumentException("TLS needs both a host credential and a CA directory");
        }
    }

    public static DoorSecurity plain(Path authz) {
        return new DoorSecurity(null, null, authz, null, Set.of(), null);
    }

    public boolean tls() {
        return hostCredential != null;
    }
}
