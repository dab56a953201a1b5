package org.gridcache.common.net;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.InetAddress;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class AllowedHostsTest {
    @Test
    void nothingInternalIsAllowedByDefault() throws Exception {
        assertEquals("127.0.0.1 is in the loopback range, which tpc.allowed-hosts does not list",
                AllowedHosts.NONE.refusal("127.0.0.1", InetAddress.getByName("127.0.0.1")));
        assertEquals("metadata.internal (169.254.169.254) is in the cloud metadata range, which tpc.allowed-hosts does not list",
                AllowedHosts.NONE.refusal("metadata.internal", InetAddress.getByName("169.254.169.254")));
        assertNull(AllowedHosts.NONE.refusal("storage.example.org", InetAddress.getByName("192.0.2.10")), "a public address");
    }

    @Test
    void listedBlocksAndNamesAreAllowed() throws Exception {
        AllowedHosts allowed = AllowedHosts.parse(" 127.0.0.1, 10.1.0.0/16 ,fd00:1::/32, storage.site.local, *.dc.site ");
        assertNull(allowed.refusal("127.0.0.1", InetAddress.getByName("127.0.0.1")));
        assertNull(allowed.refusal("x", InetAddress.getByName("::ffff:127.0.0.1")));
        assertNull(allowed.refusal("x", InetAddress.getByName("10.1.200.3")));
        assertTrue(allowed.refusal("x", InetAddress.getByName("10.2.0.1")).contains("private range"));
        assertTrue(allowed.refusal("x", InetAddress.getByName("127.0.0.2")).contains("loopback range"));
        assertNull(allowed.refusal("x", InetAddress.getByName("fd00:1::5")));
        assertNull(allowed.refusal("Storage.Site.Local.", InetAddress.getByName("192.168.0.4")));
        assertNull(allowed.refusal("a.dc.site", InetAddress.getByName("192.168.0.5")));
        assertTrue(allowed.refusal("dc.site.evil", InetAddress.getByName("192.168.0.5")).contains("not list"));
        assertEquals("127.0.0.1/32,10.1.0.0/16,fd00:1:0:0:0:0:0:0/32,storage.site.local,*.dc.site", allowed.toString());
    }

    @ParameterizedTest
    @ValueSource(strings = {"10.0.0.1/8", "10.0.0.0/33", "::/129", "10.0.0.0/x", "host name", "a_b", "http://x", "1.2.3.4/"})
    void badEntriesAreRefusedWithTheReason(String value) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> AllowedHosts.parse(value));
        assertTrue(e.getMessage() != null && !e.getMessage().isBlank());
    }

    @Test
    void aLiteralIsNeverLookedUp() {
        assertNull(Cidr.literal("localhost"));
        assertNull(Cidr.literal("127.1"));
        assertEquals("::1", Cidr.literal("[::1]").getHostAddress().replace("0:0:0:0:0:0:0:1", "::1"));
    }
}
