package org.gridcache.door.lock;

import java.util.LinkedHashSet;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The lock tokens a request submits in its {@code If} header (RFC 4918 §10.4): every state token inside a list's
 * parentheses, tagged or not, except those under {@code Not}. A token submitted does not by itself allow the write:
 * the lock table also checks that it belongs to the requesting subject.
 */
public final class IfHeader {
    private static final Pattern LIST = Pattern.compile("\\(([^)]*)\\)");
    private static final Pattern CONDITION = Pattern.compile("(Not\\s+)?<([^>]*)>|\\[[^\\]]*\\]", Pattern.CASE_INSENSITIVE);

    private IfHeader() {
    }

    public static Set<String> submittedTokens(String header) {
        Set<String> tokens = new LinkedHashSet<>();
        if (header == null) {
            return tokens;
        }
        Matcher list = LIST.matcher(header);
        while (list.find()) {
            Matcher condition = CONDITION.matcher(list.group(1));
            while (condition.find()) {
                if (condition.group(2) != null && condition.group(1) == null) {
                    tokens.add(condition.group(2).strip());
                }
            }
        }
        return tokens;
    }
}
