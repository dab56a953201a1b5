package org.gridcache.door.delegation;

import static org.junit.jupiter.api.Assertions.assertNotNull;

import com.code_intelligence.jazzer.junit.FuzzTest;

/**
 * The delegation service's SOAP body (issue 15, R8): an operation element, or IllegalArgumentException (the SOAP
 * fault the client gets) — never another exception, never a document type declaration acted on.
 */
class SoapBodyFuzzTest {
    @FuzzTest
    void anyBodyNamesAnOperationOrIsRefused(byte[] body) {
        try {
            assertNotNull(DelegationService.soapCall(body));
        } catch (IllegalArgumentException refused) {
            // a SOAP fault
        }
    }
}
