package org.gridcache.door.auth;

import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import org.gridcache.common.GridPath;
import org.gridcache.common.security.GridSubject;

/**
 * The door's authorization policy: one rule per line, {@code <who> <path-prefix> <rights>}, first match wins,
 * {@code #} starts a comment. {@code who} is {@code dn:"<DN>"}, {@code vo:<vo>}, {@code fqan:<fqan>},
 * {@code authenticated} (any valid certificate), {@code anonymous} (no certificate) or {@code anyone}; rights are a
 * comma list of {@code list}, {@code read}, {@code write}, or {@code none} (an explicit refusal). A request that no
 * rule matches is refused.
 */
public final class AuthzPolicy {
    /** What a request wants to do. */
    public enum Right { LIST, READ, WRITE }

    /** One line of the file. */
    public record Rule(int line, Who who, String prefix, Set<Right> rights) {
        boolean matches(GridSubject subject, String path) {
            return GridPath.isUnder(path, prefix) && who.matches(subject);
        }
    }

    /** The left-hand side of a rule. */
    public record Who(String kind, String value) {
        boolean matches(GridSubject s) {
            return switch (kind) {
                case "anyone" -> true;
                case "anonymous" -> s.anonymous();
                case "authenticated" -> !s.anonymous();
                case "dn" -> value.equals(s.dn());
                case "vo" -> value.equals(s.vo());
                case "fqan" -> s.fqans().stream().map(AuthzPolicy::normalizeFqan).anyMatch(value::equals);
                default -> false;
            };
        }
    }

    /** Lets everyone do everything: a plain-HTTP door given no policy (the backbone's behaviour). */
    public static final AuthzPolicy ALLOW_ALL = new AuthzPolicy(List.of(
            new Rule(0, new Who("anyone", null), "/", EnumSet.allOf(Right.class))));
    /** A TLS door given no policy: authenticated users may list and read everything, anonymous clients nothing. */
    public static final AuthzPolicy AUTHENTICATED_READ = new AuthzPolicy(List.of(
            new Rule(0, new Who("authenticated", null), "/", EnumSet.of(Right.LIST, Right.READ))));

    private final List<Rule> rules;

    private AuthzPolicy(List<Rule> rules) {
        this.rules = List.copyOf(rules);
    }

    public List<Rule> rules() {
        return rules;
    }

    /** The rule that decides for this subject and path, if any. */
    public Optional<Rule> decidingRule(GridSubject subject, String path) {
        return rules.stream().filter(r -> r.matches(subject, path)).findFirst();
    }

    public boolean allows(GridSubject subject, String path, Right right) {
        return decidingRule(subject, path).map(r -> r.rights().contains(right)).orElse(false);
    }

    /** Parses the text of a policy file; throws {@link IllegalArgumentException} naming the first bad line. */
    public static AuthzPolicy parse(String text) {
        List<Rule> rules = new ArrayList<>();
        String[] lines = text.split("\r?\n", -1);
        for (int i = 0; i < lines.length; i++) {
            String line = stripComment(lines[i]).trim();
            if (!line.isEmpty()) {
                try {
                    rules.add(parseRule(i + 1, line));
                } catch (IllegalArgumentException e) {
                    throw new IllegalArgumentException("line " + (i + 1) + ": " + e.getMessage());
                }
            }
        }
        return new AuthzPolicy(rules);
    }

    private static Rule parseRule(int number, String line) {
        Who who;
        String rest;
        if (line.startsWith("dn:\"")) {
            int end = line.indexOf('"', 4);
            if (end < 0) {
                throw new IllegalArgumentException("dn:\" without its closing quote");
            }
            String dn = line.substring(4, end);
            if (!dn.startsWith("/")) {
                throw new IllegalArgumentException("a DN is written /DC=org/DC=example/CN=Name");
            }
            who = new Who("dn", dn);
            rest = line.substring(end + 1).trim();
        } else {
            String[] first = line.split("\\s+", 2);
            who = parseWho(first[0]);
            rest = first.length > 1 ? first[1].trim() : "";
        }
        String[] parts = rest.split("\\s+");
        if (parts.length != 2 || parts[0].isEmpty()) {
            throw new IllegalArgumentException("expected <who> <path-prefix> <rights>");
        }
        String prefix;
        try {
            prefix = GridPath.normalize(parts[0]);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("bad path prefix " + parts[0] + ": " + e.getMessage());
        }
        if (!parts[0].startsWith("/")) {
            throw new IllegalArgumentException("path prefix must start with /");
        }
        return new Rule(number, who, prefix, parseRights(parts[1]));
    }

    private static Who parseWho(String token) {
        String lower = token.toLowerCase(Locale.ROOT);
        if (lower.equals("authenticated") || lower.equals("anonymous") || lower.equals("anyone")) {
            return new Who(lower, null);
        }
        int colon = token.indexOf(':');
        String kind = colon < 0 ? "" : token.substring(0, colon).toLowerCase(Locale.ROOT);
        String value = colon < 0 ? "" : token.substring(colon + 1);
        if (value.isEmpty() || !(kind.equals("vo") || kind.equals("fqan"))) {
            throw new IllegalArgumentException("unknown subject '" + token
                    + "' (use dn:\"/DN\", vo:NAME, fqan:/vo/group, authenticated, anonymous or anyone)");
        }
        if (kind.equals("fqan")) {
            if (!value.startsWith("/")) {
                throw new IllegalArgumentException("an FQAN starts with / (e.g. fqan:/atlas/Role=production)");
            }
            value = normalizeFqan(value);
        }
        return new Who(kind, value);
    }

    private static Set<Right> parseRights(String text) {
        if (text.equalsIgnoreCase("none")) {
            return EnumSet.noneOf(Right.class);
        }
        Set<Right> rights = EnumSet.noneOf(Right.class);
        for (String r : text.split(",")) {
            switch (r.trim().toLowerCase(Locale.ROOT)) {
                case "list" -> rights.add(Right.LIST);
                case "read" -> rights.add(Right.READ);
                case "write" -> rights.add(Right.WRITE);
                default -> throw new IllegalArgumentException("unknown right '" + r + "' (use list, read, write or none)");
            }
        }
        return rights;
    }

    /** VOMS writes unset roles and capabilities as Role=NULL and Capability=NULL: /atlas/Role=NULL is /atlas. */
    static String normalizeFqan(String fqan) {
        return fqan.replace("/Capability=NULL", "").replace("/Role=NULL", "");
    }

    private static String stripComment(String line) {
        boolean quoted = false;
        for (int i = 0; i < line.length(); i++) {
            char c = line.charAt(i);
            if (c == '"') {
                quoted = !quoted;
            } else if (c == '#' && !quoted) {
                return line.substring(0, i);
            }
        }
        return line;
    }
}
