package org.gridcache.door.lock;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import org.gridcache.door.exchange.DoorException;

/**
 * The {@code If} request header (RFC 4918 §10.4): lists of conditions, each list untagged (about the request's own
 * resource) or tagged with the resource it is about. A condition is a state token ({@code <opaquelocktoken:…>}, or
 * {@code <DAV:no-lock>} which no lock has) or an entity tag ({@code ["…"]}), either possibly under {@code Not}. The
 * header holds when any list holds, a list when all its conditions do ({@link LockChecks} evaluates them against the
 * lock table and the namespace).
 *
 * <p>Every token inside a list, except those under {@code Not}, is <em>submitted</em>: a token submitted does not by
 * itself allow the write, the lock table also checks that it belongs to the requesting subject.
 */
public final class IfHeader {
    /** At most this many characters: a header longer than any client's is refused, not parsed. */
    static final int MAX_LENGTH = 16 * 1024;
    private final List<Clause> clauses;

    /** One condition: a state token or an entity tag (the other null), negated or not. */
    public record Condition(boolean not, String token, String etag) {
    }

    /** One list: the resource it is about (the tag's URI as sent, null for the request's resource) and its conditions. */
    public record Clause(String resource, List<Condition> conditions) {
    }

    private IfHeader(List<Clause> clauses) {
        this.clauses = clauses;
    }

    /** No header: no list (the request has no precondition and submits no token). Malformed: 400. */
    public static IfHeader parse(String header) {
        if (header == null || header.isBlank()) {
            return new IfHeader(List.of());
        }
        if (header.length() > MAX_LENGTH) {
            throw new DoorException(400, "If header longer than " + MAX_LENGTH + " characters");
        }
        return new IfHeader(new Parser(header).clauses());
    }

    public List<Clause> clauses() {
        return clauses;
    }

    public boolean present() {
        return !clauses.isEmpty();
    }

    /** The tokens submitted: every state token of every list, except those under {@code Not}. */
    public Set<String> submittedTokens() {
        Set<String> tokens = new LinkedHashSet<>();
        for (Clause clause : clauses) {
            for (Condition c : clause.conditions()) {
                if (c.token() != null && !c.not()) {
                    tokens.add(c.token());
                }
            }
        }
        return tokens;
    }


    /** A recursive-descent reader of RFC 4918's grammar for the header; any deviation is a 400 naming where. */
    private static final class Parser {
        private final String s;
        private int at;

        Parser(String s) {
            this.s = s;
        }

        List<Clause> clauses() {
            List<Clause> out = new ArrayList<>();
            String resource = null;
            boolean tagged = false;
            skipSpace();
            while (at < s.length()) {
                char c = s.charAt(at);
                if (c == '<') {
                    if (!out.isEmpty() && !tagged) {
                        throw malformed("a resource tag after an untagged list");
                    }
                    resource = until('>');
                    tagged = true;
                    skipSpace();
                    if (at >= s.length() || s.charAt(at) != '(') {
                        throw malformed("a resource tag without a list");
                    }
                } else if (c == '(') {
                    // a tag applies to every list up to the next tag
                    out.add(new Clause(resource, list()));
                } else {
                    throw malformed("unexpected '" + c + "'");
                }
                skipSpace();
            }
            if (out.isEmpty()) {
                throw malformed("no list");
            }
            return List.copyOf(out);
        }

        private List<Condition> list() {
            at++; // '('
            List<Condition> conditions = new ArrayList<>();
            while (true) {
                skipSpace();
                if (at >= s.length()) {
                    throw malformed("an unclosed list");
                }
                if (s.charAt(at) == ')') {
                    at++;
                    if (conditions.isEmpty()) {
                        throw malformed("an empty list");
                    }
                    return conditions;
                }
                boolean not = false;
                if (s.regionMatches(true, at, "Not", 0, 3)) {
                    not = true;
                    at += 3;
                    skipSpace();
                }
                if (at >= s.length()) {
                    throw malformed("an unclosed list");
                }
                char c = s.charAt(at);
                if (c == '<') {
                    conditions.add(new Condition(not, until('>').strip(), null));
                } else if (c == '[') {
                    conditions.add(new Condition(not, null, entityTag()));
                } else {
                    throw malformed("a condition that is neither <token> nor [etag]");
                }
            }
        }

        /** {@code [W/"x"]} or {@code ["x"]}: the tag as written (quotes kept), compared with the ETag the door sends. */
        private String entityTag() {
            at++; // '['
            int start = at;
            if (s.startsWith("W/", at)) {
                at += 2;
            }
            if (at >= s.length() || s.charAt(at) != '"') {
                throw malformed("an entity tag not in quotes");
            }
            int close = s.indexOf('"', at + 1);
            if (close < 0 || close + 1 >= s.length() || s.charAt(close + 1) != ']') {
                throw malformed("an unclosed entity tag");
            }
            at = close + 2;
            return s.substring(start, close + 1);
        }

        /** The text from after the current character up to {@code end}, which is consumed. */
        private String until(char end) {
            int close = s.indexOf(end, at + 1);
            if (close < 0) {
                throw malformed("an unclosed '" + s.charAt(at) + "'");
            }
            String inside = s.substring(at + 1, close);
            at = close + 1;
            return inside;
        }

        private void skipSpace() {
            while (at < s.length() && (s.charAt(at) == ' ' || s.charAt(at) == '\t')) {
                at++;
            }
        }

        private DoorException malformed(String what) {
            return new DoorException(400, "malformed If header: " + what + " at character " + at);
        }
    }
}
