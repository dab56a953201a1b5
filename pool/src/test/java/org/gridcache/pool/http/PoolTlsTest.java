package org.gridcache.pool.http;

import static org.junit.jupiter.api.Assertions.assertTrue;

import eu.emi.security.authn.x509.X509Credential;
import io.netty.handler.ssl.OpenSsl;
import io.netty.handler.ssl.OpenSslContext;
import io.netty.handler.ssl.SslContext;
import java.nio.file.Path;
import org.gridcache.common.security.GridCredentials;
import org.gridcache.common.security.TestPki;
import org.junit.jupiter.api.Test;

class PoolTlsTest {
    /** The distribution ships BoringSSL for linux-x86_64, where pools serve with it (the JDK's TLS elsewhere). */
    @Test
    void onLinuxX8664ThePoolServesWithBoringSsl() throws Exception {
        boolean shipped = System.getProperty("os.name").equals("Linux") && System.getProperty("os.arch").equals("amd64");
        Path pki = TestPki.get();
        X509Credential host = GridCredentials.load(pki.resolve("host/cert.pem"), pki.resolve("host/key.pem"));
        SslContext server = PoolTls.server(host);
        assertTrue(server.isServer());
        if (shipped) {
            assertTrue(OpenSsl.isAvailable(), () -> "BoringSSL not loaded: " + OpenSsl.unavailabilityCause());
            assertTrue(server instanceof OpenSslContext, server.getClass().getName());
        }
    }
}
