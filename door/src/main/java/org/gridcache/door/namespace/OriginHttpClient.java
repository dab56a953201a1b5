package org.gridcache.door.namespace;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import eu.emi.security.authn.x509.X509Credential;
import java.io.IOException;
import java.time.Duration;
import java.util.Map;
import javax.net.ssl.SSLEngine;
import org.eclipse.jetty.client.Destination;
import org.eclipse.jetty.client.HttpClient;
import org.eclipse.jetty.client.HttpClientTransport;
import org.eclipse.jetty.client.Request;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.io.ClientConnectionFactory;
import org.eclipse.jetty.io.Connection;
import org.eclipse.jetty.io.EndPoint;
import org.eclipse.jetty.util.ssl.SslContextFactory;
import org.gridcache.common.security.GridTls;
import org.gridcache.common.security.GridTrust;

/**
 * The door's HTTP client towards origins and pools, which can also act as a user: a request tagged with a delegated
 * {@link OriginIdentity} goes to a destination of its own (Jetty keys destinations by scheme, host, port and tag), whose
 * TLS connections present that user's delegated credential instead of the door's host certificate. So a connection
 * made for one user never carries another's request, and an origin sees each user as themselves, as pools already
 * present users to origins. Untagged requests are the door's own.
 */
public final class OriginHttpClient extends HttpClient {
    private final GridTrust trust;
    /** TLS set-ups of the identities in use; a renewed delegation is a new identity. */
    private final Cache<OriginIdentity, SslContextFactory.Client> userTls = Caffeine.newBuilder()
            .maximumSize(10_000).expireAfterAccess(Duration.ofMinutes(10)).build();

    public OriginHttpClient(HttpClientTransport transport, GridTrust trust) {
        super(transport);
        this.trust = trust;
    }

    @Override
    public ClientConnectionFactory newSslClientConnectionFactory(SslContextFactory.Client doors, ClientConnectionFactory next) {
        ClientConnectionFactory asDoor = super.newSslClientConnectionFactory(doors, next);
        return new ClientConnectionFactory() {
            @Override
            public Connection newConnection(EndPoint endPoint, Map<String, Object> context) throws IOException {
                return chosen(context).newConnection(endPoint, context);
            }

            @Override
            public Connection customize(Connection connection, Map<String, Object> context) {
                return chosen(context).customize(connection, context);
            }

            private ClientConnectionFactory chosen(Map<String, Object> context) {
                if (context.get(HttpClientTransport.HTTP_DESTINATION_CONTEXT_KEY) instanceof Destination d
                        && d.getOrigin().getTag() instanceof OriginIdentity as && as.delegated()) {
                    return OriginHttpClient.super.newSslClientConnectionFactory(tlsOf(as), next);
                }
                return asDoor;
            }
        };
    }

    /**
     * {@code request} made as {@code as}: tagged with a delegation, so that it goes out on connections made with that
     * credential only, or carrying a user's bearer token, on connections that carry that token only (an origin such
     * as XRootD keeps the identity a connection authenticated first: a later request on it without a token, or the
     * door's own, would act as that user); the door's own otherwise.
     */
    public static Request as(OriginIdentity as, Request request) {
        if (as.actsAsUser()) {
            request.tag(as);
        }
        if (as.bearerToken() != null) {
            request.headers(h -> h.put(HttpHeader.AUTHORIZATION, "Bearer " + as.bearerToken()));
        }
        return request;
    }

    private SslContextFactory.Client tlsOf(OriginIdentity as) {
        return userTls.get(as, k -> {
            FreshSessionTls tls = new FreshSessionTls(as.credential(), trust);
            try {
                tls.start();
            } catch (Exception e) {
                throw new IllegalStateException("cannot set up TLS with a delegated credential: " + e.getMessage(), e);
            }
            return tls;
        });
    }

    /**
     * Every connection to an origin with a full handshake: mod_gridsite identifies the client from the certificate
     * chain of the handshake, and sees a resumed TLS session (which carries no chain) as an anonymous client. Each
     * engine comes from a context of its own, so there is no session to resume; keep-alive connections still reuse
     * their handshake.
     */
    public static final class FreshSessionTls extends SslContextFactory.Client {
        private final X509Credential credential;
        private final GridTrust trust;

        public FreshSessionTls(X509Credential credential, GridTrust trust) {
            this.credential = credential;
            this.trust = trust;
            setSslContext(GridTls.client(credential, trust));
            setEndpointIdentificationAlgorithm("HTTPS");
        }

        @Override
        public SSLEngine newSSLEngine(String host, int port) {
            SSLEngine engine = GridTls.client(credential, trust).createSSLEngine(host, port);
            customize(engine);
            return engine;
        }
    }
}
