package org.gridcache.door.auth;

import java.util.Map;
import org.gridcache.door.exchange.DoorException;

/**
 * The refusals of a bearer-token request with their RFC 6750 challenge, so a client can tell a token to replace
 * ({@code invalid_token}, 401) from one that is valid but does not reach this far ({@code insufficient_scope}, 403).
 * The description is the one-line reason (never the token), reduced to the characters RFC 6750 allows in it.
 */
public final class BearerChallenge {
    public static final String HEADER = "WWW-Authenticate";

    private BearerChallenge() {
    }

    /** 401 {@code invalid_token}: expired, not yet valid, bad signature, wrong audience, unknown issuer or key. */
    public static DoorException invalidToken(String reason) {
        return new DoorException(401, reason, Map.of(HEADER, challenge("invalid_token", reason)));
    }

    /** 403 {@code insufficient_scope}: the token verified, its scopes do not allow what was asked. */
    public static DoorException insufficientScope(String reason) {
        return new DoorException(403, reason, Map.of(HEADER, challenge("insufficient_scope", reason)));
    }

    static String challenge(String error, String description) {
        return "Bearer error=\"" + error + "\", error_description=\"" + describable(description) + "\"";
    }

    /** RFC 6750 3: error_description is %x20-21 / %x23-5B / %x5D-7E, so no quote, backslash or non-ASCII. */
    private static String describable(String text) {
        StringBuilder out = new StringBuilder(text.length());
        for (char c : text.toCharArray()) {
            out.append(c == '"' || c == '\\' ? '\'' : c >= 0x20 && c <= 0x7e ? c : '?');
        }
        return out.toString();
    }
}
