package org.gridcache.common.authz;

import java.util.Objects;

/**
 * Who a bearer token names: its issuer ({@code iss}) and subject ({@code sub}). Together they are unique; the
 * subject alone is not (two issuers may both have a {@code 42}).
 */
public record BearerIdentity(String issuer, String subject) {
    public BearerIdentity {
        Objects.requireNonNull(issuer, "issuer");
        Objects.requireNonNull(subject, "subject");
    }

    /** One word for tickets, logs and lock owners: {@code token:<sub>@<iss>}. */
    public String name() {
        return "token:" + subject + "@" + issuer;
    }

    @Override
    public String toString() {
        return name();
    }
}
