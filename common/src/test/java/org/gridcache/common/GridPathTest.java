package org.gridcache.common;

import org.gridcache.common.settings.ClusterSettings;
import org.gridcache.common.origin.OriginEntry;
import org.gridcache.common.settings.ClusterSettings.Keys;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

class GridPathTest {
    @Test
    void normalizes() {
        assertEquals("/", GridPath.normalize(""));
        assertEquals("/a/b", GridPath.normalize("//a/./b/"));
        assertThrows(IllegalArgumentException.class, () -> GridPath.normalize("/a/../etc/passwd"));
        assertThrows(IllegalArgumentException.class, () -> GridPath.normalize("/a\0b"));
    }

    @Test
    void originUrlEncodesSegments() {
        OriginEntry e = OriginEntry.of("o", "/data", "http://h:1/base/");
        assertEquals("http://h:1/base/x%20y/%C3%A9.bin", e.urlOf("/data/x y/é.bin"));
        assertEquals("http://h:1/base/", e.urlOf("/data"));
        assertThrows(IllegalArgumentException.class, () -> OriginEntry.of("o", "/", "ftp://h/"));
    }

    @Test
    void sizesAndSettings() {
        assertEquals(10L << 30, ByteSize.parse("10G"));
        assertEquals(512, ByteSize.parse("512"));
        assertThrows(IllegalArgumentException.class, () -> ByteSize.parse("lots"));
        assertThrows(IllegalArgumentException.class, () -> ClusterSettings.validate("redirect.on-read", "maybe"));
        assertThrows(IllegalArgumentException.class, () -> ClusterSettings.validate("no.such.key", "1"));
        assertEquals(java.time.Duration.ofSeconds(60), ClusterSettings.defaults().get(Keys.TICKET_LIFETIME));
    }
}
