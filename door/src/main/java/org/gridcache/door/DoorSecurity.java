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
 * {@code tokenIssuers}: the {@code --token-issuers} file whose issuers' bearer tokens the door accepts (null: none;
 * TLS only).
 */
public record DoorSecurity(X509Credential hostCredential, GridTrust trust, Path authz, Path delegationDir,
                           Set<String> poolIdentities, Duration maxDelegationLifetime, Path tokenIssuers) {

    public DoorSecurity {
        poolIdentities = poolIdentities == null ? Set.of() : Set.copyOf(poolIdentities);
        maxDelegationLifetime = maxDelegationLifetime == null ? Duration.ofDays(7) : maxDelegationLifetime;
        if ((hostCredential == null) != (trust == null)) {
            throw new IllegalArgumentException("TLS needs both a host credential and a CA directory");
        }
        if (tokenIssuers != null && hostCredential == null) {
            throw new IllegalArgumentException("--token-issuers needs HTTPS: bearer tokens are accepted over HTTPS only");
        }
    }

    /** A door that accepts no bearer tokens. */
    public DoorSecurity(X509Credential hostCredential, GridTrust trust, Path authz, Path delegationDir,
                        Set<String> poolIdentities, Duration maxDelegationLifetime) {
        this(hostCredential, trust, authz, delegationDir, poolIdentities, maxDelegationLifetime, null);
    }

    public static DoorSecurity plain(Path authz) {
        return new DoorSecurity(null, null, authz, null, Set.of(), null);
    }

    /** This security, accepting the bearer tokens of the issuers in {@code file} ({@code --token-issuers}; null: none). */
    public DoorSecurity withTokenIssuers(Path file) {
        return new DoorSecurity(hostCredential, trust, authz, delegationDir, poolIdentities, maxDelegationLifetime, file);
    }

    public boolean tls() {
        return hostCredential != null;
    }
}
