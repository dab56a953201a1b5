package org.gridcache.door.auth;

import com.code_intelligence.jazzer.api.FuzzedDataProvider;
import com.code_intelligence.jazzer.junit.FuzzTest;
import java.util.List;
import org.gridcache.common.security.GridSubject;

/**
 * The authorisation policy file (issue 15, R8): any text is a policy or IllegalArgumentException naming the bad
 * line; a policy that parsed answers every question without an exception.
 */
class AuthzPolicyFuzzTest {
    @FuzzTest
    void anyFileIsAPolicyOrRefusedByLine(FuzzedDataProvider data) {
        String path = "/" + data.consumeString(40);
        String text = data.consumeRemainingAsString();
        AuthzPolicy policy;
        try {
            policy = AuthzPolicy.parse(text);
        } catch (IllegalArgumentException refused) {
            return;
        }
        for (GridSubject subject : List.of(GridSubject.ANONYMOUS, GridSubject.of("/DC=org/DC=example/CN=Alice"))) {
            for (AuthzPolicy.Right right : AuthzPolicy.Right.values()) {
                policy.allows(subject, path, right);
            }
        }
    }
}
