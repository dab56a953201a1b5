package org.gridcache.door;

/**
 * Who a request acts for. Authentication comes in a later issue; until then every request is {@link #ANONYMOUS}.
 * The name goes into tickets ({@code sub}) and log lines.
 */
public record Subject(String name) {
    public static final Subject ANONYMOUS = new Subject("anonymous");
}
