package org.gridcache.pool.origin;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.netty.handler.codec.DecoderException;
import javax.net.ssl.SSLHandshakeException;
import org.junit.jupiter.api.Test;

class OriginResponseHandlerTest {
    @Test
    void aTlsAlertAboutOurCertificateIsARefusalOtherFailuresAreNot() {
        assertEquals("unknown_ca", OriginResponseHandler.refusedCredential(
                new DecoderException(new SSLHandshakeException("Received fatal alert: unknown_ca"))));
        assertEquals("certificate_expired", OriginResponseHandler.refusedCredential(
                new SSLHandshakeException("Received fatal alert: certificate_expired")));
        assertNull(OriginResponseHandler.refusedCredential(new SSLHandshakeException("Received fatal alert: handshake_failure")));
        assertNull(OriginResponseHandler.refusedCredential(new SSLHandshakeException("PKIX path building failed")));
        assertNull(OriginResponseHandler.refusedCredential(new java.net.ConnectException("Connection refused")));
    }
}
