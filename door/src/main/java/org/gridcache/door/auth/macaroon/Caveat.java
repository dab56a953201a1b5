package org.gridcache.door.auth.macaroon;

import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import org.gridcache.common.GridPath;
import org.gridcache.common.settings.SiteMap;
import org.gridcache.common.authz.Activity;

/**
 * One first-party caveat in dCache's words, {@code <kind>:<value>}: {@code id:} (the issuer, JSON), {@code before:}
 * (an ISO-8601 instant), {@code path:} (an absolute namespace path), {@code activity:} (a comma list of
 * {@link Activity} names), {@code ip:} (a comma list of CIDR blocks), {@code credential:} ({@code gridsite} or {@code
 * none}, in the words of a third-party copy's {@code Credential} header: whether the holder may have the door or a pool
 * act with the proxy the issuer delegated; only a request for the macaroon grants {@code gridsite}, as the door then
 * also writes it into {@code id:}, which a holder cannot change; one a holder appends can only say {@code none}).
 * Anything else is unknown, and a macaroon with an unknown caveat is refused: a caveat its verifier skipped would
 * widen it.
 */
sealed interface Caveat {
    String ID = "id";
    String BEFORE = "before";
    String PATH = "path";
    String ACTIVITY = "activity";
    String IP = "ip";
    String CREDENTIAL = "credential";
    /** {@code credential:gridsite}: the issuer's delegated proxy may be used for the holder. */
    String GRIDSITE = "gridsite";

    /** The caveat's text as the macaroon carries it. */
    String predicate();

    record Id(String json) implements Caveat {
        @Override
        public String predicate() {
            return ID + ":" + json;
        }
    }

    record Before(Instant instant) implements Caveat {
        @Override
        public String predicate() {
            return BEFORE + ":" + instant;
        }
    }

    record Path(String path) implements Caveat {
        public Path {
            path = GridPath.normalize(path);
        }

        @Override
        public String predicate() {
            return PATH + ":" + path;
        }
    }

    record Activities(Set<Activity> activities) implements Caveat {
        public Activities {
            if (activities.isEmpty()) {
                throw new IllegalArgumentException("an activity caveat names no activity");
            }
            activities = Set.copyOf(EnumSet.copyOf(activities));
        }

        @Override
        public String predicate() {
            return ACTIVITY + ":" + activities.stream().map(Activity::id).sorted().collect(Collectors.joining(","));
        }
    }

    /** Client addresses, matched as {@code door.site-map} matches them (literals, longest prefix, IPv4-mapped). */
    record Ip(List<String> cidrs) implements Caveat {
        public Ip {
            cidrs = List.copyOf(cidrs);
            if (cidrs.isEmpty()) {
                throw new IllegalArgumentException("an ip caveat names no address block");
            }
            for (String cidr : cidrs) {
                if (cidr.contains("=")) {
                    throw new IllegalArgumentException("'" + cidr + "' is not a CIDR block");
                }
            }
            blocks(cidrs); // each checked now, naming the first bad one
        }

        private static SiteMap blocks(List<String> cidrs) {
            // a site map of one site is exactly a set of CIDR blocks: its parser and matcher serve here too
            return SiteMap.parse(cidrs.stream().map(c -> c + "=allowed").collect(Collectors.joining(",")));
        }

        boolean allows(String clientAddress) {
            return blocks(cidrs).siteOf(clientAddress).isPresent();
        }

        @Override
        public String predicate() {
            return IP + ":" + String.join(",", cidrs);
        }
    }

    /** {@code credential:gridsite} or {@code credential:none}. */
    record Credential(String value) implements Caveat {
        public Credential {
            if (!value.equals(GRIDSITE) && !value.equals("none")) {
                throw new IllegalArgumentException("caveat credential: is gridsite or none, not '" + shortened(value) + "'");
            }
        }

        boolean gridsite() {
            return value.equals(GRIDSITE);
        }

        @Override
        public String predicate() {
            return CREDENTIAL + ":" + value;
        }
    }

    /** The caveat {@code predicate} states, or an {@link IllegalArgumentException} saying what is wrong with it. */
    static Caveat parse(String predicate) {
        int colon = predicate.indexOf(':');
        if (colon <= 0) {
            throw new IllegalArgumentException("caveat '" + shortened(predicate) + "' is not KIND:VALUE");
        }
        String value = predicate.substring(colon + 1);
        return switch (predicate.substring(0, colon)) {
            case ID -> new Id(value);
            case BEFORE -> {
                try {
                    yield new Before(Instant.parse(value));
                } catch (DateTimeParseException e) {
                    throw new IllegalArgumentException("caveat before: wants an ISO-8601 instant, not '" + shortened(value) + "'");
                }
            }
            case PATH -> {
                if (!value.startsWith("/")) {
                    throw new IllegalArgumentException("caveat path: wants an absolute path, not '" + shortened(value) + "'");
                }
                yield new Path(value);
            }
            case ACTIVITY -> new Activities(activities(value));
            case IP -> new Ip(list(value));
            case CREDENTIAL -> new Credential(value.trim());
            default -> throw new IllegalArgumentException("unknown caveat '" + shortened(predicate.substring(0, colon))
                    + "' (known: id, before, path, activity, ip, credential)");
        };
    }

    private static Set<Activity> activities(String value) {
        Set<Activity> activities = EnumSet.noneOf(Activity.class);
        for (String name : list(value)) {
            activities.add(Activity.of(name));
        }
        return activities;
    }

    private static List<String> list(String value) {
        List<String> items = new ArrayList<>();
        for (String item : value.split(",")) {
            if (!item.isBlank()) {
                items.add(item.trim());
            }
        }
        return items;
    }

    /** A client's text in a reason, cut short: reasons are one line. */
    static String shortened(String text) {
        String line = text.replaceAll("\\p{Cntrl}", "?");
        return line.length() > 80 ? line.substring(0, 80) + "…" : line;
    }
}
