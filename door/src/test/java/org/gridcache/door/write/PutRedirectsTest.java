package org.gridcache.door.write;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.gridcache.common.OriginEntry;
import org.junit.jupiter.api.Test;

/** Which origins a pool uploads to: a PUT for any other stays with the door, whatever the client asks. */
class PutRedirectsTest {
    @Test
    void poolsUploadToHttpAndFileOriginsButNotToGridFtpOnes() {
        assertTrue(PutRedirects.poolsUpload(OriginEntry.of("dav", "/dav", "https://origin.example.org/data/")));
        assertTrue(PutRedirects.poolsUpload(OriginEntry.of("local", "/local", "file:///srv/data/")));
        assertFalse(PutRedirects.poolsUpload(OriginEntry.of("grid", "/grid", "gsiftp://origin.example.org/data/", "user")),
                "a pool answers 501 to a gsiftp upload: the door writes it itself");
    }
}
