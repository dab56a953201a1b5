package org.gridcache.common.net;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.Arrays;
import java.util.regex.Pattern;

/** An address block, {@code 10.0.0.0/8} or {@code fd00::/8}; a bare address is a block of one. */
public record Cidr(byte[] network, int prefix) {
    /** An IPv4 dotted quad or anything with a colon (IPv6): what is parsed without a name lookup. */
    private static final Pattern LITERAL = Pattern.compile("[0-9]{1,3}(\\.[0-9]{1,3}){3}|[0-9a-fA-F:.]*:[0-9a-fA-F:.]*");

    public Cidr {
        network = network.clone();
        int bits = network.length * 8;
        if (prefix < 0 || prefix > bits) {
            throw new IllegalArgumentException("prefix length must be 0 to " + bits + ", not " + prefix);
        }
        for (int i = prefix; i < bits; i++) {
            if ((network[i / 8] & (0x80 >>> (i % 8))) != 0) {
                throw new IllegalArgumentException("host bits set after the /" + prefix + " prefix");
            }
        }
    }

    /** {@code value}: an address literal, with an optional {@code /prefix}; host bits set after the prefix are refused. */
    public static Cidr parse(String value) {
        return parse(value, false);
    }

    /**
     * As {@link #parse}, but a block written with host bits set is the block they lie in ({@code 10.1.2.3/8} is
     * {@code 10.0.0.0/8}), as site maps have always been read.
     */
    public static Cidr parseMasked(String value) {
        return parse(value, true);
    }

    private static Cidr parse(String value, boolean masked) {
        String v = value.trim();
        int slash = v.indexOf('/');
        InetAddress address = literal(slash < 0 ? v : v.substring(0, slash));
        if (address == null) {
            throw new IllegalArgumentException("'" + v + "': not an IPv4 or IPv6 address");
        }
        byte[] bytes = address.getAddress();
        if (bytes.length == 4 && v.contains(":")) {
            bytes = mapped(bytes); // the JDK reads ::ffff:a.b.c.d as IPv4: an IPv6 block stays one
        }
        int bits = bytes.length * 8;
        int prefix = bits;
        if (slash >= 0) {
            try {
                prefix = Integer.parseInt(v.substring(slash + 1));
            } catch (NumberFormatException e) {
                prefix = -1;
            }
            if (prefix < 0 || prefix > bits) {
                throw new IllegalArgumentException("'" + v + "': prefix length must be 0 to " + bits);
            }
        }
        if (masked) {
            for (int i = prefix; i < bits; i++) {
                bytes[i / 8] &= (byte) ~(0x80 >>> (i % 8));
            }
        }
        return new Cidr(bytes, prefix);
    }

    private static byte[] mapped(byte[] ipv4) {
        byte[] v6 = new byte[16];
        v6[10] = (byte) 0xff;
        v6[11] = (byte) 0xff;
        System.arraycopy(ipv4, 0, v6, 12, 4);
        return v6;
    }

    /** The address {@code value} writes literally (IPv6 with or without brackets), or null: never a name lookup. */
    public static InetAddress literal(String value) {
        String v = value.startsWith("[") && value.endsWith("]") ? value.substring(1, value.length() - 1) : value;
        if (!LITERAL.matcher(v).matches()) {
            return null;
        }
        try {
            return InetAddress.getByName(v); // a literal: parsed, not looked up
        } catch (UnknownHostException e) {
            return null;
        }
    }

    /** Whether {@code address} is in this block (an IPv4 address is never in an IPv6 block, nor the other way). */
    public boolean contains(byte[] address) {
        if (address.length != network.length) {
            return false;
        }
        for (int i = 0; i < prefix; i++) {
            int mask = 0x80 >>> (i % 8);
            if ((address[i / 8] & mask) != (network[i / 8] & mask)) {
                return false;
            }
        }
        return true;
    }

    @Override
    public byte[] network() {
        return network.clone();
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Cidr c && c.prefix == prefix && Arrays.equals(c.network, network);
    }

    @Override
    public int hashCode() {
        return 31 * Arrays.hashCode(network) + prefix;
    }

    @Override
    public String toString() {
        try {
            return InetAddress.getByAddress(network).getHostAddress() + "/" + prefix;
        } catch (UnknownHostException e) {
            throw new IllegalStateException(e); // 4 or 16 bytes, checked at construction
        }
    }
}
