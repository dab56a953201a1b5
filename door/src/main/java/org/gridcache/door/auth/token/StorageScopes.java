package org.gridcache.door.auth.token;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.gridcache.common.GridPath;
import org.gridcache.common.authz.Activity;
import org.gridcache.common.authz.Grants;
import org.gridcache.common.authz.PathGrant;

/**
 * A token's {@code scope} claim read as grants: the WLCG profile's {@code storage.read:/p}, {@code storage.create:/p},
 * {@code storage.modify:/p}, {@code storage.stage:/p} and SciTokens' {@code read:/p} and {@code write:/p}, each on its
 * path below the issuer's base path ({@code /atlas} + {@code storage.read:/data} = {@code /atlas/data}). Other scopes
 * ({@code openid}, {@code compute.*}, ...) are not about storage and are ignored. A storage scope without a path, or
 * with {@code ..}, makes the whole token invalid: guessing what its issuer meant could only widen it.
 */
public final class StorageScopes {
    /** Scope name → what it grants. SciTokens' {@code write} is WLCG's {@code modify} (it may overwrite). */
    private static final Map<String, Set<Activity>> SCOPES = Map.of(
            "storage.read", Activity.READING,
            "storage.create", Activity.CREATING,
            "storage.modify", Activity.MODIFYING,
            "storage.stage", Activity.STAGING,
            "read", Activity.READING,
            "write", Activity.MODIFYING);

    private StorageScopes() {
    }

    /**
     * The grants of {@code scope} (space separated, may be null) below {@code basePath}; null when it holds no storage
     * scope (then the token's groups and the policy decide). An {@link IllegalArgumentException} names a bad scope.
     */
    public static Grants of(String scope, String basePath) {
        if (scope == null || scope.isBlank()) {
            return null;
        }
        List<PathGrant> grants = new ArrayList<>();
        for (String one : scope.trim().split("\\s+")) {
            int colon = one.indexOf(':');
            String name = colon < 0 ? one : one.substring(0, colon);
            Set<Activity> activities = SCOPES.get(name);
            if (activities == null) {
                continue;
            }
            String path = colon < 0 ? "" : one.substring(colon + 1);
            if (!path.startsWith("/")) {
                throw new IllegalArgumentException("storage scope " + name + " without a path (" + name + ":/path)");
            }
            try {
                grants.add(new PathGrant(activities, GridPath.normalize(basePath + path)));
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException("storage scope " + name + ": " + e.getMessage());
            }
        }
        return grants.isEmpty() ? null : new Grants(grants);
    }
}
