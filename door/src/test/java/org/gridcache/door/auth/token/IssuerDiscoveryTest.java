package org.gridcache.door.auth.token;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.nimbusds.jose.jwk.RSAKey;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.io.Content;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.util.Callback;
import org.eclipse.jetty.util.ssl.SslContextFactory;
import org.gridcache.common.security.GridCredentials;
import org.gridcache.common.security.GridTls;
import org.gridcache.common.security.GridTrust;
import org.gridcache.common.security.TestPki;
import org.gridcache.door.exchange.DoorException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * An issuer configured without a JWKS file: its keys come from its discovery document over HTTPS (a local Jetty with
 * gridenv's host certificate, trusted through the CA directory), cached, and fetched again on an unknown key id.
 */
class IssuerDiscoveryTest {
    private static final String DOOR = "https://door.example.org";
    @TempDir
    Path dir;
    private Server server;
    private String issuer;
    private GridTrust trust;
    private volatile String jwks;
    private final AtomicInteger discoveries = new AtomicInteger();
    private final AtomicInteger keyFetches = new AtomicInteger();
    private final RSAKey first = TestIssuer.rsaKey("k1");
    private final RSAKey second = TestIssuer.rsaKey("k2");

    @BeforeEach
    void startIssuer() throws Exception {
        Path pki = TestPki.get();
        trust = GridTrust.load(pki.resolve("certificates"), null, Duration.ofMinutes(10));
        server = new Server();
        SslContextFactory.Server tls = new SslContextFactory.Server();
        tls.setSslContext(GridTls.server(GridCredentials.load(pki.resolve("host/cert.pem"), pki.resolve("host/key.pem"))));
        ServerConnector connector = new ServerConnector(server, tls);
        connector.setHost("127.0.0.1");
        server.addConnector(connector);
        server.setHandler(new Handler.Abstract() {
            @Override
            public boolean handle(Request request, Response response, Callback callback) {
                String path = Request.getPathInContext(request);
                String body;
                if (path.equals(DiscoveredJwkSet.DISCOVERY)) {
                    discoveries.incrementAndGet();
                    body = "{\"issuer\": \"" + issuer + "\", \"jwks_uri\": \"" + issuer + "/jwks\"}";
                } else if (path.equals("/jwks")) {
                    keyFetches.incrementAndGet();
                    body = jwks;
                } else {
                    Response.writeError(request, response, callback, 404);
                    return true;
                }
                response.getHeaders().put(HttpHeader.CONTENT_TYPE, "application/json");
                Content.Sink.write(response, true, body, callback);
                return true;
            }
        });
        server.start();
        issuer = "https://127.0.0.1:" + connector.getLocalPort();
        jwks = new TestIssuer(issuer).jwks(first);
        Files.writeString(dir.resolve("issuers.json"), "[{\"issuer\": \"" + issuer + "\"}]", StandardCharsets.UTF_8);
    }

    @AfterEach
    void stop() throws Exception {
        server.stop();
        trust.close();
    }

    private JwtVerifier verifier(GridTrust over, Duration minRefetch) throws Exception {
        return new JwtVerifier(new TokenIssuers(dir.resolve("issuers.json"), TokenIssuers.retriever(over), minRefetch, Clock.systemUTC()),
                () -> DOOR, Clock.systemUTC());
    }

    private String token(RSAKey key) {
        return TestIssuer.sign(new TestIssuer(issuer).claims(DOOR, "storage.read:/").build(), key);
    }

    @Test
    void keysAreDiscoveredCachedAndFetchedAgainForAnUnknownKid() throws Exception {
        JwtVerifier verifier = verifier(trust, Duration.ofMillis(1));
        assertTrue(verifier.verify(token(first)).isPresent());
        assertTrue(verifier.verify(token(first)).isPresent());
        assertEquals(1, discoveries.get());
        assertEquals(1, keyFetches.get()); // cached

        DoorException unknown = assertThrows(DoorException.class, () -> verifier.verify(token(second)));
        assertEquals(401, unknown.status());
        assertEquals("no RS256 key of token issuer " + issuer + " has key id (kid) k2", unknown.reason());
        assertEquals(2, keyFetches.get()); // fetched again before refusing

        jwks = new TestIssuer(issuer).jwks(first, second); // the issuer rolls its key over
        assertTrue(verifier.verify(token(second)).isPresent());
        assertEquals(3, keyFetches.get());
        assertEquals(1, discoveries.get());
    }

    @Test
    void madeUpKeyIdsCannotMakeTheDoorHammerTheIssuer() throws Exception {
        JwtVerifier verifier = verifier(trust, Duration.ofMinutes(10));
        assertTrue(verifier.verify(token(first)).isPresent());
        for (int i = 0; i < 5; i++) {
            DoorException unknown = assertThrows(DoorException.class, () -> verifier.verify(token(TestIssuer.rsaKey("made-up"))));
            assertEquals(401, unknown.status());
        }
        assertTrue(keyFetches.get() <= 2, keyFetches.get() + " fetches");
    }

    @Test
    void anIssuerWhoseCertificateIsNotTrustedIsUnavailableNotTheClientsFault() throws Exception {
        JwtVerifier verifier = verifier(null, Duration.ofMinutes(10)); // the JDK's CAs only: gridenv's CA is not among them
        for (int i = 0; i < 3; i++) { // the third is refused by the rate limit: still unavailable, not an unknown kid
            DoorException e = assertThrows(DoorException.class, () -> verifier.verify(token(first)));
            assertEquals(503, e.status());
            assertTrue(e.reason().startsWith("cannot obtain the keys of token issuer " + issuer + " now: "), e.reason());
        }
        assertEquals(0, discoveries.get());
    }
}
