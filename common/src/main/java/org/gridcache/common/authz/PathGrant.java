package org.gridcache.common.authz;

import java.util.EnumSet;
import java.util.Set;
import java.util.TreeSet;
import org.gridcache.common.GridPath;

/**
 * Some activities on a namespace path and everything below it, matched by whole components: {@code /foo} covers
 * {@code /foo} and {@code /foo/x}, never {@code /foobar}.
 */
public record PathGrant(Set<Activity> activities, String path) {
    public PathGrant {
        if (activities.isEmpty()) {
            throw new IllegalArgumentException("a grant of no activity");
        }
        activities = Set.copyOf(EnumSet.copyOf(activities));
        path = GridPath.normalize(path);
    }

    public boolean allows(Activity activity, String target) {
        return activities.contains(activity) && GridPath.isUnder(target, path);
    }

    /** {@code ACTIVITY,ACTIVITY:/path}, activities sorted: the form tickets carry. */
    public String encode() {
        TreeSet<String> names = new TreeSet<>();
        activities.forEach(a -> names.add(a.id()));
        return String.join(",", names) + ":" + path;
    }

    /** The grant {@link #encode()} wrote, or an {@link IllegalArgumentException}. */
    public static PathGrant decode(String text) {
        int colon = text.indexOf(':');
        if (colon <= 0 || colon == text.length() - 1 || text.charAt(colon + 1) != '/') {
            throw new IllegalArgumentException("a grant is ACTIVITY[,ACTIVITY]:/path, not '" + text + "'");
        }
        Set<Activity> activities = EnumSet.noneOf(Activity.class);
        for (String a : text.substring(0, colon).split(",")) {
            activities.add(Activity.of(a));
        }
        return new PathGrant(activities, text.substring(colon + 1));
    }
}
