package org.gridcache.common.security;

import java.time.Instant;

/**
 * How a request's subject authenticated, for audit and for what its credential may reach: {@code method} ({@value
 * #X509}, {@value #TOKEN}, {@value #MACAROON}, or {@value #NONE_METHOD}), the token's {@code issuer}, the
 * credential's {@code id} (a JWT's {@code jti}, else {@code sha256:} and the start of the token's hash; a macaroon's
 * identifier), never the credential itself; {@code notAfter}, when the credential stops being valid (null: unknown);
 * and {@code delegation}, whether the subject may act with its DN's delegated proxy: an X.509 client, which holds the
 * key itself, may; a macaroon only when its issuer granted it ({@code credential:gridsite}) or when the request also
 * presented a certificate of the same DN (gfal2 sends the macaroon it got from the door with its proxy); a JWT has no
 * DN.
 */
public record Authentication(String method, String issuer, String id, Instant notAfter, boolean delegation) {
    public static final String X509 = "x509";
    public static final String TOKEN = "token";
    public static final String MACAROON = "macaroon";
    public static final String NONE_METHOD = "anonymous";
    /** No credential at all. */
    public static final Authentication NONE = new Authentication(NONE_METHOD, null, null, null, false);
    /** A certificate or proxy presented in the TLS handshake, of unknown expiry. */
    public static final Authentication CERTIFICATE = x509(null);

    public static Authentication x509(Instant notAfter) {
        return new Authentication(X509, null, null, notAfter, true);
    }

    public static Authentication token(String issuer, String id, Instant notAfter) {
        return new Authentication(TOKEN, issuer, id, notAfter, false);
    }

    public static Authentication macaroon(String id, Instant notAfter, boolean delegation) {
        return new Authentication(MACAROON, null, id, notAfter, delegation);
    }

    /** The same credential, allowed to act with the delegation. */
    public Authentication withDelegation() {
        return new Authentication(method, issuer, id, notAfter, true);
    }

    public boolean is(String kind) {
        return method.equals(kind);
    }

    /** One word or a few for logs and transfer records: {@code x509}, {@code token <iss> <id>}, {@code macaroon <id>}. */
    @Override
    public String toString() {
        return switch (method) {
            case TOKEN -> TOKEN + " " + issuer + (id == null ? "" : " " + id);
            case MACAROON -> MACAROON + " " + id;
            default -> method;
        };
    }
}
