package org.gridcache.door.auth;

import jakarta.servlet.http.HttpServletRequest;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Optional;
import org.gridcache.common.security.GridSubject;
import org.gridcache.door.http.DoorException;

/**
 * A bearer token's subject, from {@code Authorization: Bearer <token>} or the {@code authz} query parameter (for
 * clients that cannot set a header), asked of each {@link BearerVerifier} in turn; without a token, the next resolver
 * (X.509). A token decides even when a certificate was presented too, as dCache does. A token no verifier claims, or
 * one sent over plain HTTP (a token sent in clear is spent), is a 401.
 */
public final class BearerSubjectResolver implements SubjectResolver {
    static final String PARAMETER = "authz";
    private static final String SCHEME = "Bearer ";
    private final List<BearerVerifier> verifiers;
    private final SubjectResolver withoutToken;

    public BearerSubjectResolver(List<BearerVerifier> verifiers, SubjectResolver withoutToken) {
        this.verifiers = List.copyOf(verifiers);
        this.withoutToken = withoutToken;
    }

    @Override
    public GridSubject resolve(HttpServletRequest request) {
        Optional<String> token = token(request);
        if (token.isEmpty()) {
            return withoutToken.resolve(request);
        }
        if (!request.isSecure()) {
            throw new DoorException(401, "bearer tokens are accepted over HTTPS only");
        }
        for (BearerVerifier verifier : verifiers) {
            Optional<GridSubject> subject = verifier.verify(token.get(), request);
            if (subject.isPresent()) {
                return subject.get();
            }
        }
        throw new DoorException(401, "bearer token of no kind this door accepts");
    }

    static Optional<String> token(HttpServletRequest request) {
        String header = request.getHeader("Authorization");
        if (header != null && header.regionMatches(true, 0, SCHEME, 0, SCHEME.length())) {
            return Optional.of(header.substring(SCHEME.length()).trim()).filter(t -> !t.isEmpty());
        }
        // the query string itself, never getParameter: that would read a form body as parameters
        String query = request.getQueryString();
        if (query == null) {
            return Optional.empty();
        }
        for (String pair : query.split("&")) {
            if (pair.startsWith(PARAMETER + "=")) {
                String value = URLDecoder.decode(pair.substring(PARAMETER.length() + 1), StandardCharsets.UTF_8).trim();
                return Optional.of(value).filter(t -> !t.isEmpty());
            }
        }
        return Optional.empty();
    }
}
