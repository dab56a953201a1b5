package org.gridcache.common.authz;

import java.util.EnumSet;
import java.util.Locale;
import java.util.Set;

/**
 * What a request does to a path, in dCache's words (the activities of its macaroon caveats), fine enough to tell the
 * WLCG token scopes apart: {@code storage.create} may {@link #UPLOAD} a new file but not {@link #DELETE} (so not
 * overwrite), {@code storage.modify} may both.
 */
public enum Activity {
    /** List a collection's members. */
    LIST,
    /** Stat a path: every storage scope allows it. */
    READ_METADATA,
    /** Read a file's bytes. */
    DOWNLOAD,
    /** Write a new file (an existing one also needs {@link #DELETE}). */
    UPLOAD,
    /** Create a collection. */
    MANAGE,
    /** Remove a file or collection, or replace a file. */
    DELETE,
    /** Change dead properties (PROPPATCH). */
    UPDATE_METADATA,
    /** Bring a file online from tape. */
    STAGE;

    /** dCache's name, as in {@code activity:DOWNLOAD,LIST}. */
    public String id() {
        return name();
    }

    /** The activity named {@code id} (case-insensitive), or an {@link IllegalArgumentException} naming it. */
    public static Activity of(String id) {
        try {
            return valueOf(id.trim().toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("unknown activity '" + id + "' (use " + EnumSet.allOf(Activity.class) + ")");
        }
    }

    /** What {@code storage.read} grants. */
    public static final Set<Activity> READING = Set.copyOf(EnumSet.of(LIST, READ_METADATA, DOWNLOAD));
    /** What {@code storage.create} grants: new files and collections, never removing or replacing one. */
    public static final Set<Activity> CREATING = Set.copyOf(EnumSet.of(READ_METADATA, UPLOAD, MANAGE));
    /** What {@code storage.modify} grants: create implied, plus removing, replacing and properties. */
    public static final Set<Activity> MODIFYING = Set.copyOf(EnumSet.of(READ_METADATA, UPLOAD, MANAGE, DELETE, UPDATE_METADATA));
    /** What {@code storage.stage} grants. */
    public static final Set<Activity> STAGING = Set.copyOf(EnumSet.of(READ_METADATA, STAGE));
}
