package org.gridcache.common;

import java.util.ArrayList;
import java.util.List;

/**
 * A normalised absolute namespace path ("/a/b/c", never "..", never "//"). Every path a client sends is parsed
 * here before the door or a pool uses it, so nothing downstream sees traversal tricks.
 */
public final class GridPath {
    private GridPath() {
    }

    /** Normalises a decoded path; throws {@link IllegalArgumentException} with a one-line reason when it is unsafe. */
    public static String normalize(String decoded) {
        if (decoded == null || decoded.isEmpty()) {
            return "/";
        }
        if (decoded.indexOf('\0') >= 0) {
            throw new IllegalArgumentException("path contains a NUL byte");
        }
        List<String> parts = new ArrayList<>();
        for (String part : decoded.split("/")) {
            if (part.isEmpty() || part.equals(".")) {
                continue;
            }
            if (part.equals("..")) {
                throw new IllegalArgumentException("path contains '..'");
            }
            parts.add(part);
        }
        return "/" + String.join("/", parts);
    }

    /** True when {@code path} equals {@code prefix} or lies below it (both normalised). */
    public static boolean isUnder(String path, String prefix) {
        if (prefix.equals("/")) {
            return true;
        }
        return path.equals(prefix) || path.startsWith(prefix + "/");
    }

    /** The part of {@code path} below {@code prefix}, starting with "/" (or "/" itself). */
    public static String relativize(String path, String prefix) {
        if (prefix.equals("/")) {
            return path;
        }
        String rest = path.substring(prefix.length());
        return rest.isEmpty() ? "/" : rest;
    }

    /** The last segment, or "" for the root. */
    public static String name(String path) {
        return path.substring(path.lastIndexOf('/') + 1);
    }

    public static String parent(String path) {
        int slash = path.lastIndexOf('/');
        return slash <= 0 ? "/" : path.substring(0, slash);
    }

    public static String child(String dir, String name) {
        return dir.endsWith("/") ? dir + name : dir + "/" + name;
    }
}
