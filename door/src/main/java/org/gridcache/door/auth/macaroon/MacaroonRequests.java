package org.gridcache.door.auth.macaroon;

import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.function.Supplier;
import org.gridcache.common.Json;
import org.gridcache.common.UrlCodec;
import org.gridcache.common.security.GridSubject;
import org.gridcache.door.exchange.DoorException;
import org.gridcache.door.exchange.RequestBodies;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code POST <path>} with {@code Content-Type: application/macaroon-request}, as dCache answers it: an authenticated
 * subject (anonymous: 401) over HTTPS (else 403: a bearer token sent in clear is spent) gets 200 and
 * {@code {"macaroon": M, "uri": {"targetWithMacaroon": "<door><path>?authz=M", "baseWithMacaroon": "<door>/?authz=M"}}}.
 * A subject that holds a macaroon is refused (403): it appends caveats to the one it has, which cannot outlive it.
 * A body that is not a request (bad JSON, an unknown caveat or field, a bad duration): 400. A validity beyond
 * {@code macaroon.max-validity}, or beyond the expiry of the credential the request came with (an X.509 chain's
 * earliest notAfter, a token's exp), is cut to it, and the answer says so (and why) in {@value #CAPPED}.
 */
public final class MacaroonRequests {
    public static final String CONTENT_TYPE = "application/macaroon-request";
    static final String CAPPED = "Macaroon-Validity-Capped";
    private static final int MAX_BODY = 16 * 1024;
    private static final Logger LOG = LoggerFactory.getLogger(MacaroonRequests.class);
    private final MacaroonIssuer issuer;
    private final Supplier<String> doorUrl;

    /** {@code issuer}: null on a plain-HTTP door, which issues none. */
    public MacaroonRequests(MacaroonIssuer issuer, Supplier<String> doorUrl) {
        this.issuer = issuer;
        this.doorUrl = doorUrl;
    }

    /** Whether {@code request} asks for a macaroon (and so is this class's to answer). */
    public static boolean applies(HttpServletRequest request) {
        String type = request.getContentType();
        return request.getMethod().equals("POST") && type != null
                && type.split(";", 2)[0].trim().toLowerCase(Locale.ROOT).equals(CONTENT_TYPE);
    }

    public void handle(HttpServletRequest request, HttpServletResponse response, String path, GridSubject subject) throws IOException {
        if (issuer == null || !request.isSecure()) {
            throw new DoorException(403, "macaroons are issued over HTTPS only");
        }
        if (subject.anonymous()) {
            throw new DoorException(401, "authentication required to request a macaroon: present an X.509 certificate, a proxy or a bearer token");
        }
        if (!subject.caveats().isEmpty()) {
            throw new DoorException(403, "a macaroon cannot request a macaroon: append caveats to the one you hold");
        }
        MacaroonRequest asked;
        try {
            asked = MacaroonRequest.parse(RequestBodies.read(request, MAX_BODY, "macaroon request"), path);
        } catch (IllegalArgumentException e) {
            throw new DoorException(400, "bad macaroon request: " + e.getMessage());
        }
        String door = doorUrl.get();
        MacaroonIssuer.Minted minted = issuer.mint(subject, path, asked, door);
        Map<String, Object> uri = new LinkedHashMap<>();
        uri.put("targetWithMacaroon", door + UrlCodec.encodePath(path) + "?authz=" + minted.macaroon());
        uri.put("baseWithMacaroon", door + "/?authz=" + minted.macaroon());
        Map<String, Object> answer = new LinkedHashMap<>();
        answer.put("macaroon", minted.macaroon());
        answer.put("uri", uri);
        byte[] body = Json.bytes(answer);
        LOG.info("macaroon for {} at {} until {} with {}", subject, path, minted.before(), asked.caveats().stream().map(Caveat::predicate).toList());
        response.setStatus(200);
        if (minted.capped()) {
            response.setHeader(CAPPED, "until " + minted.before() + " (" + minted.why() + ")");
        }
        response.setContentType("application/json");
        response.setContentLength(body.length);
        response.getOutputStream().write(body);
    }
}
