package org.gridcache.door.auth;

import jakarta.servlet.http.HttpServletRequest;
import java.util.Optional;
import org.gridcache.common.security.GridSubject;

/**
 * One kind of bearer token (a WLCG/SciTokens JWT, a macaroon): the subject it stands for, empty when the token is not
 * of this kind (the next verifier is asked), or a {@link org.gridcache.door.exchange.DoorException} 401 when it is and does
 * not verify (expired, bad signature, wrong audience, unknown issuer), with a one-line reason that quotes no token.
 */
@FunctionalInterface
public interface BearerVerifier {
    Optional<GridSubject> verify(String token, HttpServletRequest request);
}
