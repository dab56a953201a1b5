package org.gridcache.common.security;

import java.util.List;

/**
 * Who a request acts for: the grid identity (the end entity's DN in the OpenSSL slash form that grid policy files
 * use, {@code /DC=org/DC=example/CN=Alice}), the VO and FQANs of a valid VOMS attribute certificate (none without
 * one), and whether the client presented a limited proxy. {@link #ANONYMOUS} has no DN.
 */
public record GridSubject(String dn, String vo, List<String> fqans, boolean limited) {
    public static final GridSubject ANONYMOUS = new GridSubject(null, null, List.of(), false);
    public static final String ANONYMOUS_NAME = "anonymous";

    public GridSubject {
        fqans = fqans == null ? List.of() : List.copyOf(fqans);
    }

    public static GridSubject of(String dn) {
        return new GridSubject(dn, null, List.of(), false);
    }

    public boolean anonymous() {
        return dn == null;
    }

    /** The DN, or "anonymous": for tickets and log lines. */
    public String name() {
        return dn == null ? ANONYMOUS_NAME : dn;
    }

    /** One line for logs: DN, then VO and FQANs when there are any. */
    @Override
    public String toString() {
        return vo == null ? name() : name() + " (vo " + vo + ", fqans " + String.join(",", fqans) + ")";
    }
}
