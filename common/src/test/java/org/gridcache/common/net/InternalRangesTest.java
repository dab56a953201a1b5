package org.gridcache.common.net;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.net.InetAddress;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class InternalRangesTest {
    @ParameterizedTest
    @CsvSource({
            "127.0.0.1, loopback", "127.255.0.9, loopback", "::1, loopback",
            "169.254.169.254, cloud metadata", "169.254.1.1, link-local", "fe80::1, link-local",
            "10.0.0.1, private", "172.16.0.1, private", "172.31.255.255, private", "192.168.1.1, private",
            "100.100.100.200, shared (RFC 6598)",
            "fd00::1, unique-local", "fd00:ec2::254, unique-local", "fc00::1, unique-local",
            "224.0.0.1, multicast", "239.1.2.3, multicast", "ff02::1, multicast",
            "0.0.0.0, unspecified", "::, unspecified", "255.255.255.255, reserved", "fec0::1, site-local",
            // IPv6 forms that carry an internal IPv4 address
            "::ffff:7f00:1, loopback", "::ffff:a9fe:a9fe, cloud metadata", "::7f00:1, loopback", "64:ff9b::a00:1, private",
    })
    void internalAddressesAreNamedByTheirRange(String address, String range) throws Exception {
        assertEquals(range, InternalRanges.rangeOf(InetAddress.getByName(address)));
    }

    @ParameterizedTest
    @ValueSource(strings = {"8.8.8.8", "172.32.0.1", "172.15.255.255", "192.169.0.1", "100.128.0.1", "11.0.0.1",
            "2001:db8::1", "2a00:1450:4001::1", "::ffff:808:808", "64:ff9b::808:808", "fe00::1"})
    void publicAddressesAreInNoRange(String address) throws Exception {
        assertNull(InternalRanges.rangeOf(InetAddress.getByName(address)));
    }

    @ParameterizedTest
    @ValueSource(strings = {"::ffff:127.0.0.1", "0:0:0:0:0:ffff:7f00:0001"})
    void anIpv4MappedLiteralIsItsIpv4Address(String literal) {
        // the JDK turns a mapped literal into an Inet4Address already; built from bytes it stays IPv6 in other APIs
        assertEquals("loopback", InternalRanges.rangeOf(Cidr.literal(literal)));
    }

    @org.junit.jupiter.api.Test
    void anInet6AddressBuiltFromMappedBytesIsJudgedByItsIpv4Address() throws Exception {
        byte[] mapped = new byte[16];
        mapped[10] = (byte) 0xff;
        mapped[11] = (byte) 0xff;
        mapped[12] = 10;
        mapped[15] = 1;
        InetAddress v6 = java.net.Inet6Address.getByAddress(null, mapped, -1);
        assertEquals("private", InternalRanges.rangeOf(v6));
    }
}
