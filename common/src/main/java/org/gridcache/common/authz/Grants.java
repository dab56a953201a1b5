package org.gridcache.common.authz;

import java.util.List;

/**
 * A set of {@link PathGrant}s: what a token's storage scopes grant, or what a macaroon's caveats still allow. An
 * activity on a path is allowed when any grant allows it; {@link #NONE} allows nothing.
 */
public record Grants(List<PathGrant> grants) {
    public static final Grants NONE = new Grants(List.of());

    public Grants {
        grants = List.copyOf(grants);
    }

    public static Grants of(PathGrant... grants) {
        return new Grants(List.of(grants));
    }

    public boolean allows(Activity activity, String path) {
        return grants.stream().anyMatch(g -> g.allows(activity, path));
    }

    public boolean isEmpty() {
        return grants.isEmpty();
    }

    /** Each grant in {@link PathGrant#encode()} form. */
    public List<String> encode() {
        return grants.stream().map(PathGrant::encode).toList();
    }

    /** The grants {@link #encode()} wrote, or an {@link IllegalArgumentException} naming the bad one. */
    public static Grants decode(List<String> encoded) {
        return new Grants(encoded.stream().map(PathGrant::decode).toList());
    }

    @Override
    public String toString() {
        return String.join(" ", encode());
    }
}
