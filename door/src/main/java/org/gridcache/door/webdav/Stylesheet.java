package org.gridcache.door.webdav;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import org.gridcache.door.exchange.DoorRequests;

/**
 * The one static resource of the door's pages ({@code /.gridcache/style.css}), read once from the door's jar. Its
 * entity tag is a digest of its bytes, so browsers keep it until a door of another release serves other bytes.
 */
public final class Stylesheet {
    public static final String PATH = DoorRequests.SERVICES + "/style.css";
    public static final String CONTENT_TYPE = "text/css; charset=utf-8";
    /** A day: the bytes change only with the door's release, and the entity tag catches that on revalidation. */
    public static final String CACHE_CONTROL = "public, max-age=86400";
    private static final byte[] BYTES = load();
    public static final String ETAG = "\"" + digest(BYTES) + "\"";

    private Stylesheet() {
    }

    public static byte[] bytes() {
        return BYTES.clone();
    }

    private static byte[] load() {
        try (InputStream in = Stylesheet.class.getResourceAsStream("gridcache.css")) {
            if (in == null) {
                throw new IllegalStateException("gridcache.css is missing from the door's jar");
            }
            return in.readAllBytes();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static String digest(byte[] bytes) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes), 0, 12);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
