package org.gridcache.common.settings;

import java.net.InetAddress;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import org.gridcache.common.net.Cidr;

/**
 * Which site a client is at, from its address: the cluster setting {@code door.site-map}, a comma-separated list of
 * {@code CIDR=site} (e.g. {@code 10.0.0.0/8=cern,127.0.0.0/8=local}). The longest matching prefix wins; an address
 * that no prefix covers has no site. Addresses are literals only: nothing here ever asks DNS. A block is a
 * {@link Cidr} read as site maps always were: host bits set after the prefix are ignored ({@code 10.1.2.3/8} is
 * {@code 10.0.0.0/8}), where {@code tpc.allowed-hosts} refuses them.
 */
public final class SiteMap {
    private static final SiteMap EMPTY = new SiteMap(List.of());

    /** One {@code CIDR=site} entry. */
    record Entry(Cidr block, String site) {
        int prefixLength() {
            return block.prefix();
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
        if (text.indexOf('/') < 0) {
            throw new IllegalArgumentException("'" + text + "' is not a CIDR block (e.g. 10.0.0.0/8 or 2001:db8::/32)");
        }
        return new Entry(Cidr.parseMasked(text), site);
    }

    /** The site of a client address ({@code request.getRemoteAddr()}), if a prefix covers it. */
    public Optional<String> siteOf(String address) {
        if (entries.isEmpty() || address == null) {
            return Optional.empty();
        }
        int zone = address.indexOf('%'); // a link-local client's scope names the interface, not the address
        InetAddress literal = Cidr.literal(zone < 0 ? address : address.substring(0, zone));
        if (literal == null) {
            return Optional.empty();
        }
        byte[] a = ipv4Mapped(literal.getAddress());
        for (Entry e : entries) {
            if (e.block().contains(a)) {
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
