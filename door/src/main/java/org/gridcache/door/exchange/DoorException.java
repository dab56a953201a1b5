package org.gridcache.door.exchange;

import java.util.Map;
import org.gridcache.common.origin.OriginEntry;
import org.gridcache.common.security.GridSubject;

/**
 * A request that ends in a clear HTTP status with a one-line reason for the client (never a secret, never a stack
 * trace). Unchecked so that it passes through Caffeine loaders and Milton callbacks unchanged.
 */
public final class DoorException extends RuntimeException {
    private static final long serialVersionUID = 1L;
    /** The header of a 401 that names where to delegate (dCache's and GridSite clients' convention). */
    public static final String DELEGATE_TO = "X-Delegate-To";
    /**
     * The {@code Retry-After} of a 503 that names none: what a 503 says is "not now" (no pool, ZooKeeper unreachable,
     * a limit reached), and RFC 9110 §10.2.3 lets the client know when to come back instead of giving up.
     */
    static final String DEFAULT_RETRY_AFTER_SECONDS = "5";
    private final int status;
    private final transient Map<String, String> headers;

    public DoorException(int status, String reason) {
        this(status, reason, Map.of());
    }

    /** A refusal that also sets response headers (e.g. {@code X-Delegate-To} with a 401). */
    public DoorException(int status, String reason, Map<String, String> headers) {
        super(reason, null, false, false); // expected outcomes: no stack trace to fill
        this.status = status;
        this.headers = status == 503 && !headers.containsKey("Retry-After")
                ? withRetryAfter(headers) : Map.copyOf(headers);
    }

    private static Map<String, String> withRetryAfter(Map<String, String> headers) {
        Map<String, String> all = new java.util.HashMap<>(headers);
        all.put("Retry-After", DEFAULT_RETRY_AFTER_SECONDS);
        return Map.copyOf(all);
    }

    public Map<String, String> headers() {
        return headers;
    }

    public int status() {
        return status;
    }

    public String reason() {
        return getMessage();
    }

    public static DoorException notFound(String path) {
        return new DoorException(404, "not found: " + path);
    }

    public static DoorException badGateway(String reason) {
        return new DoorException(502, reason);
    }

    /** 403: {@code origin} is read with the user's own credential, which a door without TLS cannot take. */
    public static DoorException cannotTakeUserCredential(OriginEntry origin) {
        return new DoorException(403, "origin " + origin.name() + " is read with the user's credential, which this door cannot take (no TLS)");
    }

    /** 403: a bearer token's subject has no X.509 identity, so nothing can act as it towards a {@code credential user} origin. */
    public static DoorException tokenCannotActAsUser(OriginEntry origin) {
        return new DoorException(403, "a bearer token cannot act as an X.509 user towards origin " + origin.name()
                + ": use a certificate or proxy for it");
    }

    /**
     * 403: {@code subject} authenticated with a macaroon whose issuer did not grant it the delegated proxy (the caveat
     * {@code credential:gridsite}), or with a bearer token (no DN, so no delegation), and {@code what} needs one.
     */
    public static DoorException delegationNotGranted(GridSubject subject, String what) {
        return new DoorException(403, what + " needs a delegated proxy, which " + (subject.dn() == null
                ? "a bearer token has none of: use a certificate or proxy"
                : "a macaroon may use only when minted with the caveat credential:gridsite or sent with a certificate of its DN"));
    }

    /**
     * 401 with {@code X-Delegate-To}: the user must delegate a proxy to {@code endpoint} before the door or a pool may
     * act for them on {@code origin}, which is {@code used} ("read", "listed and read") with the user's own credential.
     * Clients such as gfal2 and davix delegate on this header, as with dCache's third-party copy.
     */
    public static DoorException delegateFirst(OriginEntry origin, String used, String endpoint) {
        return new DoorException(401, "origin " + origin.name() + " is " + used + " with your own credential: delegate a proxy to "
                + endpoint + " first", Map.of(DELEGATE_TO, endpoint));
    }
}
