package org.gridcache.common;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;

/**
 * Which site a client is at, from its address: the cluster setting {@code door.site-map}, a comma-separated list of
 * {@code CIDR=site} (e.g. {@code 10.0.0.0/8=cern,127.0.0.0/8=local}). The longest matching prefix wins; an address
 * that no prefix covers has no site. Addresses are literals only: nothing here ever asks DNS.
 */
public final class SiteMap {
    private static final SiteMap EMPTY = new SiteMap(List.of());

    /** One {@code CIDR=site} entry. */
    record Entry(byte[] network, int prefixLength, String site) {
        boolean matches(byte[] address) {
            if (address.length != network.length) {
                return false;
            }
            int full = prefixLength / 8;
            for (int i = 0; i < full; i++) {
                if (address[i] != network[i]) {
                    return false;
                }
            }
            int rest = prefixLength % 8;
            if (rest == 0) {
                return true;
            }
            int mask = (0xff << (8 - rest)) & 0xff;
            return (address[full] & mask) == (network[full] & mask);
        }
    }

    private final List<Entry> entries; // longest prefix first

    private SiteMap(List<Entry> entries) {
        this.entries = entries;
    }

    public static SiteMap empty() {
        return EMPTY;
    }

    /** Parses the setting; throws {@link IllegalArgumentException} naming the first bad entry. */
    public static SiteMap parse(String text) {
        List<Entry> entries = new ArrayList<>();
        for (String item : text.split(",")) {
            String s = item.trim();
            if (s.isEmpty()) {
                continue;
            }
            int eq = s.indexOf('=');
            if (eq < 0) {
                throw new IllegalArgumentException("'" + s + "' is not CIDR=site (e.g. 10.0.0.0/8=cern)");
            }
            String site = s.substring(eq + 1).trim();
            if (!site.matches("[A-Za-z0-9._-]+")) {
                throw new IllegalArgumentException("site name '" + site + "' may hold only letters, digits, '.', '_' and '-'");
            }
            entries.add(cidr(s.substring(0, eq).trim(), site));
        }
        entries.sort(Comparator.comparingInt(Entry::prefixLength).reversed());
        return entries.isEmpty() ? EMPTY : new SiteMap(List.copyOf(entries));
    }

    private static Entry cidr(String text, String site) {
        int slash = text.indexOf('/');
        if (slash < 0) {
            throw new IllegalArgumentException("'" + text + "' is not a CIDR block (e.g. 10.0.0.0/8 or 2001:db8::/32)");
        }
        byte[] network = literal(text.substring(0, slash))
                .orElseThrow(() -> new IllegalArgumentException("'" + text + "': not an IPv4 or IPv6 address"));
        int bits = network.length * 8;
        int length;
        try {
            length = Integer.parseInt(text.substring(slash + 1));
        } catch (NumberFormatException e) {
            length = -1;
        }
        if (length < 0 || length > bits) {
            throw new IllegalArgumentException("'" + text + "': prefix length must be 0 to " + bits);
        }
        return new Entry(network, length, site);
    }

    /** The bytes of an address literal (IPv4 dotted quad, IPv6, optionally in brackets); empty for anything else. */
    static Optional<byte[]> literal(String text) {
        String s = text.startsWith("[") && text.endsWith("]") ? text.substring(1, text.length() - 1) : text;
        boolean ipv4 = s.matches("\\d{1,3}(\\.\\d{1,3}){3}");
        boolean ipv6 = s.contains(":") && s.matches("[0-9A-Fa-f:.]+(%[A-Za-z0-9]+)?");
        if (!ipv4 && !ipv6) {
            return Optional.empty();
        }
        try {
            byte[] bytes = InetAddress.getByName(s).getAddress(); // a literal: parsed, never resolved
            return Optional.of(bytes);
        } catch (UnknownHostException e) {
            return Optional.empty();
        }
    }

    /** The site of a client address ({@code request.getRemoteAddr()}), if a prefix covers it. */
    public Optional<String> siteOf(String address) {
        if (entries.isEmpty() || address == null) {
            return Optional.empty();
        }
        Optional<byte[]> bytes = literal(address);
        if (bytes.isEmpty()) {
            return Optional.empty();
        }
        byte[] a = ipv4Mapped(bytes.get());
        for (Entry e : entries) {
            if (e.matches(a)) {
                return Optional.of(e.site());
            }
        }
        return Optional.empty();
    }

    /** ::ffff:a.b.c.d is the IPv4 client a.b.c.d (a dual-stack socket shows IPv4 clients so). */
    private static byte[] ipv4Mapped(byte[] a) {
        if (a.length != 16) {
            return a;
        }
        for (int i = 0; i < 10; i++) {
            if (a[i] != 0) {
                return a;
            }
        }
        if (a[10] != (byte) 0xff || a[11] != (byte) 0xff) {
            return a;
        }
        return new byte[] {a[12], a[13], a[14], a[15]};
    }

    public boolean isEmpty() {
        return entries.isEmpty();
    }
}
