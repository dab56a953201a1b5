package org.gridcache.common.origin;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;
import java.util.Locale;
import java.util.function.Supplier;

/**
 * What a door or a pool presents to an origin, as the mount table says ({@code origins add … --credential}) and the
 * ticket repeats: this is the one place that decides it, for every origin protocol, on both sides. See
 * ARCHITECTURE.md, "Trust model".
 */
public enum CredentialMode {
    /** Nothing: http, file and public https origins. */
    NONE,
    /** The reading user's delegated proxy: the origin enforces its own ACLs. */
    USER,
    /** The node's own host certificate: public data behind an origin that wants a certificate. */
    SERVICE,
    /**
     * The reading user's own bearer token, sent as {@code Authorization: Bearer} (http and https origins only): the
     * origin judges the token. TLS to the origin presents no client certificate.
     */
    TOKEN;

    /** The word used on the command line, in ZooKeeper and in tickets. */
    @JsonValue
    public String id() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** {@code none}, {@code user}, {@code service} or {@code token} in any case; null (entries written before grid security) is none. */
    @JsonCreator
    public static CredentialMode parse(String value) {
        if (value == null) {
            return NONE;
        }
        return switch (value.trim().toLowerCase(Locale.ROOT)) {
            case "none" -> NONE;
            case "user" -> USER;
            case "service" -> SERVICE;
            case "token" -> TOKEN;
            default -> throw new IllegalArgumentException("credential must be none, user, service or token (got '" + value + "')");
        };
    }

    /**
     * The credential to present: {@code anonymous} for none, {@code host} for service, what {@code delegated} finds
     * (null: nothing) for user, and for token what {@code delegated} makes of the user's token (in a header, over TLS
     * that presents no certificate). {@code node} names the door or pool in the reason when its host credential is missing
     * (an operator's matter, 502); {@code subject} names the user whose delegation is missing (the client's: 401,
     * delegate and retry).
     */
    public <C> C choose(C anonymous, C host, Supplier<C> delegated, String node, String subject) throws MissingCredential {
        return switch (this) {
            case NONE -> anonymous;
            case SERVICE -> {
                if (host == null) {
                    throw new MissingCredential(502, "this " + node + " has no host credential, which the origin's service-credential mount needs");
                }
                yield host;
            }
            case USER -> {
                C c = delegated.get();
                if (c == null) {
                    throw new MissingCredential(401, "no delegated credential of " + subject + " at this " + node);
                }
                yield c;
            }
            case TOKEN -> {
                C c = delegated.get();
                if (c == null) {
                    throw new MissingCredential(401, "no bearer token of " + subject + " at this " + node
                            + ": send the request again with your token");
                }
                yield c;
            }
        };
    }

    /** A credential the mode asks for is not there: the HTTP status to answer and a one-line reason (never a secret). */
    public static final class MissingCredential extends Exception {
        private static final long serialVersionUID = 1L;
        private final int status;

        MissingCredential(int status, String reason) {
            super(reason, null, false, false);
            this.status = status;
        }

        /** 401 when the user must delegate, 502 when the node lacks its host credential. */
        public int status() {
            return status;
        }
    }
}
