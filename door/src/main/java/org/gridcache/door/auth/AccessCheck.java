package org.gridcache.door.auth;

import java.util.Locale;
import org.gridcache.common.authz.Activity;
import org.gridcache.common.security.GridSubject;
import org.gridcache.door.exchange.DoorException;

/**
 * The verdict on one activity as a status: a refused anonymous client gets 401 (it may come back with a certificate
 * or a token), a refused authenticated one 403. The subject's token scopes decide when it has any, else the policy
 * file ({@link #rightOf}); a macaroon's caveats bound either ({@link GridSubject#allows}).
 */
public final class AccessCheck {
    private AccessCheck() {
    }

    /** Passes when {@code subject} may do {@code activity} on {@code path}; else a 401 or 403. */
    public static void require(AuthzPolicy policy, GridSubject subject, String path, Activity activity) {
        if (allows(policy, subject, path, activity)) {
            return;
        }
        // the policy file's words for what it refused, the activity's where a token or macaroon bounded it
        String wanted = subject.scopes() == null && subject.caveats().isEmpty()
                ? rightOf(activity).name().toLowerCase(Locale.ROOT) : activity.name().toLowerCase(Locale.ROOT).replace('_', ' ');
        if (subject.anonymous()) {
            throw new DoorException(401, "authentication required: present an X.509 certificate, a proxy or a bearer token to "
                    + wanted + " " + path);
        }
        String reason = subject.name() + " may not " + wanted + " " + path + because(subject, path, activity);
        // RFC 6750: a valid token whose scopes fall short says so, for the client to ask its issuer for more
        throw subject.scopes() != null ? BearerChallenge.insufficientScope(reason) : new DoorException(403, reason);
    }

    public static boolean allows(AuthzPolicy policy, GridSubject subject, String path, Activity activity) {
        return subject.allows(activity, path, () -> policyAllows(policy, subject, path, activity));
    }

    private static boolean policyAllows(AuthzPolicy policy, GridSubject subject, String path, Activity activity) {
        return switch (activity) {
            // a stat: either right will do, as a reader stats what it reads and a lister what it lists
            case READ_METADATA -> policy.allows(subject, path, AuthzPolicy.Right.LIST) || policy.allows(subject, path, AuthzPolicy.Right.READ);
            default -> policy.allows(subject, path, rightOf(activity));
        };
    }

    /** The policy file's right an activity needs. */
    static AuthzPolicy.Right rightOf(Activity activity) {
        return switch (activity) {
            case LIST, READ_METADATA -> AuthzPolicy.Right.LIST;
            case DOWNLOAD, STAGE -> AuthzPolicy.Right.READ;
            case UPLOAD, MANAGE, DELETE, UPDATE_METADATA -> AuthzPolicy.Right.WRITE;
        };
    }

    /** Which of the deciders refused: the token's scopes, the macaroon's caveats, or (unsaid) the policy file. */
    private static String because(GridSubject subject, String path, Activity activity) {
        if (subject.scopes() != null) {
            return " (the token's scopes: " + (subject.scopes().isEmpty() ? "none for storage" : subject.scopes()) + ")";
        }
        if (subject.caveats().isEmpty()) {
            return "";
        }
        return subject.caveats().stream().allMatch(c -> c.allows(activity, path))
                ? " (the macaroon's caveats allow it; the policy file does not allow its issuer)"
                : " (the macaroon's caveats do not allow it)";
    }
}
