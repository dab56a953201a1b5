package org.gridcache.door.auth.token;

import com.fasterxml.jackson.databind.JsonNode;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.gridcache.common.GridPath;

/**
 * One entry of the {@code --token-issuers} file: whose tokens the door accepts ({@code issuer}, compared with a
 * token's {@code iss} exactly), where its keys are ({@code jwks}, a JWKS file; null: the issuer's discovery document
 * over HTTPS), the namespace path its scopes are relative to ({@code base-path}), the audiences it may address the
 * door by besides the door's URL ({@code audiences}), and its groups' names in the policy file ({@code groups}, token
 * group → policy group; null: the token's groups are used as they are, which only a file of one issuer may leave out:
 * with several, each issuer's groups count only as its map says, so a low-trust issuer cannot claim another's VO).
 */
public record TokenIssuer(String issuer, Path jwks, String basePath, List<String> audiences, Map<String, String> groups) {
    private static final Set<String> FIELDS = Set.of("issuer", "jwks", "base-path", "audiences", "groups");

    public TokenIssuer {
        audiences = List.copyOf(audiences);
        groups = groups == null ? null : Map.copyOf(groups);
    }

    /** {@code groups} mapped: through the issuer's map when it has one (unmapped groups dropped), else as they are. */
    public List<String> policyGroups(List<String> tokenGroups) {
        if (groups == null) {
            return tokenGroups;
        }
        return tokenGroups.stream().map(groups::get).filter(g -> g != null).distinct().toList();
    }

    /**
     * The issuers of the file's JSON list, or an {@link IllegalArgumentException} whose one line names the entry;
     * {@code jwks} paths are relative to {@code dir}.
     */
    static List<TokenIssuer> parseAll(JsonNode list, Path dir) {
        if (list == null || !list.isArray()) {
            throw new IllegalArgumentException("a JSON list of issuers is expected");
        }
        List<TokenIssuer> all = new ArrayList<>();
        Set<String> seen = new java.util.HashSet<>();
        for (int i = 0; i < list.size(); i++) {
            JsonNode entry = list.get(i);
            String name = entry.path("issuer").isTextual() ? entry.get("issuer").asText() : "#" + (i + 1);
            try {
                TokenIssuer issuer = parse(entry, dir);
                if (!seen.add(issuer.issuer())) {
                    throw new IllegalArgumentException("listed twice");
                }
                all.add(issuer);
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException("issuer " + name + ": " + e.getMessage());
            }
        }
        if (all.size() > 1) {
            // fqan: rules name groups without an issuer: unmapped, any issuer's "/atlas" would pass for the VO's
            for (TokenIssuer issuer : all) {
                if (issuer.groups() == null) {
                    throw new IllegalArgumentException("issuer " + issuer.issuer() + ": with more than one issuer each needs a \"groups\" map"
                            + " (token group to policy group; {} for none), so that no issuer's groups pass for another's");
                }
            }
        }
        return all;
    }

    private static TokenIssuer parse(JsonNode entry, Path dir) {
        if (!entry.isObject()) {
            throw new IllegalArgumentException("an entry is a JSON object");
        }
        for (Iterator<String> names = entry.fieldNames(); names.hasNext(); ) {
            String field = names.next();
            if (!FIELDS.contains(field)) {
                throw new IllegalArgumentException("unknown field '" + field + "' (use " + String.join(", ", FIELDS.stream().sorted().toList()) + ")");
            }
        }
        String issuer = text(entry, "issuer", null);
        if (issuer == null) {
            throw new IllegalArgumentException("no \"issuer\"");
        }
        URI url;
        try {
            url = new URI(issuer);
        } catch (URISyntaxException e) {
            throw new IllegalArgumentException("\"issuer\" is not a URL");
        }
        String jwks = text(entry, "jwks", null);
        if (jwks == null && (!"https".equals(url.getScheme()) || url.getHost() == null)) {
            // its keys would come over plain HTTP, where anyone on the path could replace them
            throw new IllegalArgumentException("no \"jwks\" file, and the issuer is not an https URL to discover its keys from");
        }
        String basePath = text(entry, "base-path", "/");
        if (!basePath.startsWith("/")) {
            throw new IllegalArgumentException("\"base-path\" must start with /");
        }
        basePath = GridPath.normalize(basePath);
        List<String> audiences = new ArrayList<>();
        JsonNode aud = entry.get("audiences");
        if (aud != null) {
            if (!aud.isArray()) {
                throw new IllegalArgumentException("\"audiences\" is a list of strings");
            }
            for (JsonNode a : aud) {
                if (!a.isTextual() || a.asText().isBlank()) {
                    throw new IllegalArgumentException("\"audiences\" is a list of strings");
                }
                audiences.add(a.asText());
            }
        }
        Map<String, String> groups = null;
        JsonNode map = entry.get("groups");
        if (map != null) {
            if (!map.isObject()) {
                throw new IllegalArgumentException("\"groups\" maps a token group to a policy group: {\"/atlas\": \"/atlas\"}");
            }
            groups = new LinkedHashMap<>();
            for (Iterator<Map.Entry<String, JsonNode>> it = map.fields(); it.hasNext(); ) {
                Map.Entry<String, JsonNode> g = it.next();
                if (!g.getValue().isTextual() || !g.getValue().asText().startsWith("/")) {
                    throw new IllegalArgumentException("group " + g.getKey() + " must map to a group starting with / (as fqan: rules name it)");
                }
                groups.put(g.getKey(), g.getValue().asText());
            }
        }
        return new TokenIssuer(issuer, jwks == null ? null : dir.resolve(jwks), basePath, audiences, groups);
    }

    private static String text(JsonNode entry, String field, String absent) {
        JsonNode value = entry.get(field);
        if (value == null || value.isNull()) {
            return absent;
        }
        if (!value.isTextual() || value.asText().isBlank()) {
            throw new IllegalArgumentException("\"" + field + "\" must be a non-empty string");
        }
        return value.asText();
    }
}
