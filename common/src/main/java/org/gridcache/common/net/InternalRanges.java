package org.gridcache.common.net;

import java.net.InetAddress;
import java.util.Arrays;
import java.util.List;

/**
 * The address ranges that reach a site's inside rather than the grid: loopback, link-local (with the clouds'
 * metadata service at 169.254.169.254), private (RFC 1918) and shared (RFC 6598, where some clouds answer metadata
 * too), unique-local, multicast, unspecified and reserved. An IPv6 address that carries an IPv4 one (IPv4-mapped,
 * IPv4-compatible, NAT64's well-known prefix) is judged by the IPv4 address it carries.
 */
public final class InternalRanges {
    /** One named block. */
    private record Range(Cidr block, String name) {
    }

    private static final List<Range> RANGES = List.of(
            range("0.0.0.0/8", "unspecified"),
            range("127.0.0.0/8", "loopback"),
            range("169.254.169.254/32", "cloud metadata"),
            range("169.254.0.0/16", "link-local"),
            range("10.0.0.0/8", "private"),
            range("172.16.0.0/12", "private"),
            range("192.168.0.0/16", "private"),
            range("100.64.0.0/10", "shared (RFC 6598)"),
            range("192.0.0.0/24", "IETF protocol assignment"),
            range("224.0.0.0/4", "multicast"),
            range("240.0.0.0/4", "reserved"),
            range("::/128", "unspecified"),
            range("::1/128", "loopback"),
            range("fe80::/10", "link-local"),
            range("fec0::/10", "site-local"),
            range("fc00::/7", "unique-local"),
            range("ff00::/8", "multicast"));
    /** IPv6 prefixes whose last 32 bits are an IPv4 address: mapped (::ffff:0:0/96), compatible (::/96), NAT64. */
    private static final List<Cidr> CARRYING_IPV4 = List.of(Cidr.parse("::ffff:0:0/96"), Cidr.parse("::/96"),
            Cidr.parse("64:ff9b::/96"));

    private InternalRanges() {
    }

    private static Range range(String cidr, String name) {
        return new Range(Cidr.parse(cidr), name);
    }

    /** The name of the internal range {@code address} is in ("loopback", "private", ...), or null for a public one. */
    public static String rangeOf(InetAddress address) {
        byte[] bytes = address.getAddress();
        for (Range range : RANGES) {
            if (range.block().contains(bytes)) {
                return range.name();
            }
        }
        byte[] carried = carriedIpv4(bytes);
        return carried == null ? null : rangeOf(carried);
    }

    private static String rangeOf(byte[] ipv4) {
        for (Range range : RANGES) {
            if (range.block().contains(ipv4)) {
                return range.name();
            }
        }
        return null;
    }

    /** The IPv4 address an IPv6 {@code bytes} carries in its last 32 bits, or null. */
    static byte[] carriedIpv4(byte[] bytes) {
        if (bytes.length != 16) {
            return null;
        }
        for (Cidr prefix : CARRYING_IPV4) {
            if (prefix.contains(bytes)) {
                return Arrays.copyOfRange(bytes, 12, 16);
            }
        }
        return null;
    }
}
