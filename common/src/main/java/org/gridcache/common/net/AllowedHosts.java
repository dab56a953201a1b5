package org.gridcache.common.net;

import java.net.InetAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Pattern;

/**
 * The value of {@code tpc.allowed-hosts}: the address blocks ({@code 10.1.0.0/16}, {@code 127.0.0.1}) and host names
 * (exact, or {@code *.domain}) a third-party copy may reach although they are in an {@link InternalRanges internal
 * range}. A name allows the addresses it resolves to when the copy connects; an address outside every internal
 * range needs no listing.
 */
public final class AllowedHosts {
    /** The setting's key, for the reasons that name it. */
    public static final String KEY = "tpc.allowed-hosts";
    public static final AllowedHosts NONE = new AllowedHosts(List.of(), List.of());
    private static final Pattern NAME = Pattern.compile("(\\*\\.)?[a-z0-9]([a-z0-9.-]*[a-z0-9])?");
    private final List<Cidr> blocks;
    private final List<String> names;

    private AllowedHosts(List<Cidr> blocks, List<String> names) {
        this.blocks = List.copyOf(blocks);
        this.names = List.copyOf(names);
    }

    /** {@code value}: comma-separated address blocks and host names; empty allows nothing internal. */
    public static AllowedHosts parse(String value) {
        List<Cidr> blocks = new ArrayList<>();
        List<String> names = new ArrayList<>();
        for (String item : value.split(",")) {
            String v = item.trim().toLowerCase(Locale.ROOT);
            if (v.isEmpty()) {
                continue;
            }
            if (v.contains("/") || Cidr.literal(v) != null) {
                blocks.add(Cidr.parse(v));
            } else if (NAME.matcher(v).matches()) {
                names.add(v);
            } else {
                throw new IllegalArgumentException("not an address, address/prefix, host name or *.domain: " + v);
            }
        }
        return new AllowedHosts(blocks, names);
    }

    /**
     * Null when a copy may connect to {@code address}, which {@code host} (as the URL names it) resolved to; else the
     * one-line reason it may not.
     */
    public String refusal(String host, InetAddress address) {
        String range = InternalRanges.rangeOf(address);
        if (range == null || listsName(host) || listsAddress(address)) {
            return null;
        }
        String shown = address.getHostAddress();
        String named = Cidr.literal(host) != null ? shown : host + " (" + shown + ")";
        return named + " is in the " + range + " range, which " + KEY + " does not list";
    }

    private boolean listsName(String host) {
        String h = host.toLowerCase(Locale.ROOT);
        h = h.endsWith(".") ? h.substring(0, h.length() - 1) : h;
        for (String name : names) {
            if (name.equals(h) || name.startsWith("*.") && h.endsWith(name.substring(1))) {
                return true;
            }
        }
        return false;
    }

    private boolean listsAddress(InetAddress address) {
        byte[] bytes = address.getAddress();
        byte[] carried = InternalRanges.carriedIpv4(bytes);
        for (Cidr block : blocks) {
            if (block.contains(bytes) || carried != null && block.contains(carried)) {
                return true;
            }
        }
        return false;
    }

    @Override
    public String toString() {
        List<String> all = new ArrayList<>();
        blocks.forEach(b -> all.add(b.toString()));
        all.addAll(names);
        return String.join(",", all);
    }
}
