package org.gridcache.door.auth;

import jakarta.servlet.http.HttpServletRequest;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import org.gridcache.common.UrlCodec;
import org.gridcache.common.security.GridSubject;
import org.gridcache.door.exchange.DoorException;

/**
 * The subject of a request that carries a bearer token, in {@code Authorization: Bearer <token>} or, for clients
 * that cannot set headers, the {@code authz} query parameter (read from the raw query, never from a form body, and
 * never logged: the door logs paths only). Each {@link BearerVerifier} is asked in turn; the first that knows the
 * token's kind decides. A token decides even when the client also presented a certificate (dCache does the same): a
 * client that sends one means to act with it (a macaroon with a certificate of its own DN may also act with that DN's
 * delegation: {@link #withPresentedKey}). Without a token the request goes to the next resolver (X.509). A token
 * over plain HTTP is refused: it travelled in clear, so anyone on the path holds it now.
 */
public final class BearerSubjectResolver implements SubjectResolver {
    public static final String QUERY_PARAMETER = "authz";
    private static final String SCHEME = "bearer ";
    private final List<BearerVerifier> verifiers;
    private final SubjectResolver otherwise;

    public BearerSubjectResolver(List<BearerVerifier> verifiers, SubjectResolver otherwise) {
        this.verifiers = List.copyOf(verifiers);
        this.otherwise = otherwise;
    }

    @Override
    public GridSubject resolve(HttpServletRequest request) {
        Optional<String> token = token(request);
        if (token.isEmpty()) {
            return otherwise.resolve(request);
        }
        if (!request.isSecure()) {
            throw BearerChallenge.invalidToken("bearer tokens are accepted over HTTPS only (this one was sent in clear: revoke it)");
        }
        for (BearerVerifier verifier : verifiers) {
            Optional<GridSubject> subject = verifier.verify(token.get(), request);
            if (subject.isPresent()) {
                return withPresentedKey(subject.get(), request);
            }
        }
        throw BearerChallenge.invalidToken(verifiers.isEmpty() ? "this door accepts no bearer tokens (no token issuer is configured)"
                : "the bearer token is of no kind this door accepts (a JWT of a configured issuer)");
    }

    /**
     * A macaroon's subject that names a DN may act with that DN's delegation when the request also presented a
     * certificate or proxy of the same DN: its client holds the user's key (gfal2 and FTS send the macaroon they got
     * from the door together with their proxy, and {@code Credential: gridsite}). A certificate that does not validate
     * adds nothing.
     */
    private GridSubject withPresentedKey(GridSubject subject, HttpServletRequest request) {
        if (subject.dn() == null || subject.mayActWithDelegation() || X509SubjectResolver.chain(request) == null) {
            return subject;
        }
        GridSubject presenter;
        try {
            presenter = otherwise.resolve(request);
        } catch (DoorException e) {
            return subject;
        }
        return presenter.presentedCertificate() && subject.dn().equals(presenter.dn())
                ? subject.authenticatedBy(subject.authentication().withDelegation()) : subject;
    }

    /** The request's bearer token: the {@code Authorization} header's, else the {@code authz} query parameter's. */
    static Optional<String> token(HttpServletRequest request) {
        String header = request.getHeader("Authorization");
        if (header != null && header.length() > SCHEME.length() && header.substring(0, SCHEME.length()).toLowerCase(Locale.ROOT).equals(SCHEME)) {
            return Optional.of(header.substring(SCHEME.length()).trim());
        }
        String query = request.getQueryString();
        if (query == null) {
            return Optional.empty();
        }
        for (String pair : query.split("&")) {
            if (pair.startsWith(QUERY_PARAMETER + "=") && pair.length() > QUERY_PARAMETER.length() + 1) {
                try {
                    return Optional.of(UrlCodec.decode(pair.substring(QUERY_PARAMETER.length() + 1)));
                } catch (IllegalArgumentException e) {
                    throw BearerChallenge.invalidToken("the authz query parameter is not percent-encoded");
                }
            }
        }
        return Optional.empty();
    }
}
