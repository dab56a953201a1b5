package org.gridcache.door.webdav;

import java.util.Comparator;
import java.util.Locale;
import org.gridcache.door.namespace.NamespaceEntry;

/**
 * The order of a listing page, from its query ({@code ?sort=size&order=desc}): the column headers link to it, so the
 * page sorts without its script too. Collections come first in every order; an unknown value is the default (by name,
 * ascending), as a page's query is a preference, not a request that can fail.
 */
public record ListingOrder(Column column, boolean descending) {
    public static final ListingOrder DEFAULT = new ListingOrder(Column.NAME, false);

    /** A sortable column; {@code key} is its word in the query and in the page's {@code data-} attributes. */
    public enum Column {
        NAME("name", Comparator.comparing(NamespaceEntry::name)),
        SIZE("size", Comparator.comparingLong(NamespaceEntry::size)),
        MODIFIED("modified", Comparator.comparingLong(NamespaceEntry::mtimeMillis));

        private final String key;
        private final Comparator<NamespaceEntry> order;

        Column(String key, Comparator<NamespaceEntry> order) {
            this.key = key;
            this.order = order;
        }

        public String key() {
            return key;
        }
    }

    /** {@code sort} and {@code order} as the query gives them (null when absent). */
    public static ListingOrder parse(String sort, String order) {
        Column column = Column.NAME;
        for (Column c : Column.values()) {
            if (c.key.equals(sort == null ? null : sort.toLowerCase(Locale.ROOT))) {
                column = c;
            }
        }
        return new ListingOrder(column, "desc".equalsIgnoreCase(order));
    }

    /** Collections first, then by the column, ties by name. */
    Comparator<NamespaceEntry> comparator() {
        Comparator<NamespaceEntry> within = column.order.thenComparing(NamespaceEntry::name);
        return Comparator.comparing((NamespaceEntry e) -> !e.collection()).thenComparing(descending ? within.reversed() : within);
    }

    /** The query of a header link: this column ascending, or descending when the page is already so sorted. */
    String linkTo(Column target) {
        boolean desc = target == column && !descending;
        return "?sort=" + target.key + (desc ? "&order=desc" : "");
    }

    /** The {@code aria-sort} of a header ({@code none} for the columns the page is not sorted by). */
    String ariaSort(Column target) {
        return target != column ? "none" : descending ? "descending" : "ascending";
    }
}
