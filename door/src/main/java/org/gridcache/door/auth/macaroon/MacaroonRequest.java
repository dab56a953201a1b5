package org.gridcache.door.auth.macaroon;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.time.Duration;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Optional;
import org.gridcache.common.GridPath;
import org.gridcache.common.Json;

/**
 * A macaroon request's JSON body, dCache's form: {@code {"caveats": ["activity:DOWNLOAD,LIST", "path:/sub",
 * "ip:127.0.0.0/8"], "validity": "PT30M"}}, both optional. A {@code path:} is joined to the request's path (it narrows
 * within it, never climbs out). Only {@code activity:}, {@code path:}, {@code ip:} and {@code credential:} may be asked
 * for: the door writes {@code id:} and {@code before:} itself.
 */
record MacaroonRequest(List<Caveat> caveats, Optional<Duration> validity) {

    /** Whether the request asks that the holder may act with the issuer's delegation ({@code credential:gridsite}). */
    boolean asksForDelegation() {
        return caveats.stream().anyMatch(c -> c instanceof Caveat.Credential credential && credential.gridsite())
                && caveats.stream().noneMatch(c -> c instanceof Caveat.Credential credential && !credential.gridsite());
    }

    /** The request a body makes for {@code requestPath}, or an {@link IllegalArgumentException} with the reason. */
    static MacaroonRequest parse(byte[] body, String requestPath) {
        JsonNode root;
        try {
            root = body.length == 0 ? Json.mapper().createObjectNode() : Json.mapper().readTree(body);
        } catch (IOException e) {
            throw new IllegalArgumentException("the body is not JSON");
        }
        if (root == null || !root.isObject()) {
            throw new IllegalArgumentException("the body is not a JSON object");
        }
        for (Iterator<String> names = root.fieldNames(); names.hasNext(); ) {
            String name = names.next();
            if (!name.equals("caveats") && !name.equals("validity")) {
                throw new IllegalArgumentException("unknown field '" + Caveat.shortened(name) + "' (use caveats and validity)");
            }
        }
        List<Caveat> caveats = new ArrayList<>();
        JsonNode list = root.path("caveats");
        if (!list.isMissingNode() && !list.isArray()) {
            throw new IllegalArgumentException("caveats is not a list of strings");
        }
        for (JsonNode item : list) {
            if (!item.isTextual()) {
                throw new IllegalArgumentException("caveats is not a list of strings");
            }
            caveats.add(requested(Caveat.parse(relativePath(item.asText())), requestPath));
        }
        return new MacaroonRequest(List.copyOf(caveats), validity(root.path("validity")));
    }

    /** dCache lets a request say {@code path:sub} as well as {@code path:/sub}: both lie below the request's path. */
    private static String relativePath(String predicate) {
        return predicate.startsWith(Caveat.PATH + ":") && !predicate.startsWith(Caveat.PATH + ":/")
                ? Caveat.PATH + ":/" + predicate.substring(Caveat.PATH.length() + 1) : predicate;
    }

    private static Caveat requested(Caveat caveat, String requestPath) {
        if (caveat instanceof Caveat.Path p) {
            return new Caveat.Path(GridPath.child(requestPath, p.path().substring(1)));
        }
        if (caveat instanceof Caveat.Id) {
            throw new IllegalArgumentException("caveat id: is the door's to write");
        }
        if (caveat instanceof Caveat.Before) {
            throw new IllegalArgumentException("caveat before: is the door's to write: ask for a validity");
        }
        return caveat; // activity:, ip:, credential:
    }

    private static Optional<Duration> validity(JsonNode node) {
        if (node.isMissingNode() || node.isNull()) {
            return Optional.empty();
        }
        if (!node.isTextual()) {
            throw new IllegalArgumentException("validity is not an ISO-8601 duration such as PT30M");
        }
        try {
            Duration d = Duration.parse(node.asText());
            if (d.isNegative() || d.isZero()) {
                throw new IllegalArgumentException("validity must be positive");
            }
            return Optional.of(d);
        } catch (DateTimeParseException e) {
            throw new IllegalArgumentException("validity '" + Caveat.shortened(node.asText()) + "' is not an ISO-8601 duration such as PT30M");
        }
    }
}
