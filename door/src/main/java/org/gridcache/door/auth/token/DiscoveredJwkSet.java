package org.gridcache.door.auth.token;

import com.fasterxml.jackson.databind.JsonNode;
import com.nimbusds.jose.KeySourceException;
import com.nimbusds.jose.jwk.JWKSet;
import com.nimbusds.jose.jwk.source.JWKSetCacheRefreshEvaluator;
import com.nimbusds.jose.jwk.source.JWKSetRetrievalException;
import com.nimbusds.jose.jwk.source.JWKSetSource;
import com.nimbusds.jose.jwk.source.URLBasedJWKSetSource;
import com.nimbusds.jose.proc.SecurityContext;
import com.nimbusds.jose.util.ResourceRetriever;
import java.io.IOException;
import java.net.URI;
import java.net.URL;
import org.gridcache.common.Json;

/**
 * An issuer's keys found through its discovery document ({@code <iss>/.well-known/openid-configuration}, OpenID
 * Connect Discovery and RFC 8414): its {@code jwks_uri}, which must be HTTPS, is fetched. Caching, the refetch on an
 * unknown {@code kid} and its rate limit are nimbus' ({@code JWKSourceBuilder}, wrapped around this). A failed key
 * fetch forgets the {@code jwks_uri}, so that the next attempt discovers it again (an issuer may move its keys).
 */
final class DiscoveredJwkSet implements JWKSetSource<SecurityContext> {
    static final String DISCOVERY = "/.well-known/openid-configuration";
    private final String issuer;
    private final ResourceRetriever retriever;
    private volatile URLBasedJWKSetSource<SecurityContext> keys;
    private volatile boolean lastFetchFailed;

    DiscoveredJwkSet(String issuer, ResourceRetriever retriever) {
        this.issuer = issuer;
        this.retriever = retriever;
    }

    @Override
    public JWKSet getJWKSet(JWKSetCacheRefreshEvaluator refresh, long now, SecurityContext context) throws KeySourceException {
        try {
            URLBasedJWKSetSource<SecurityContext> source = keys;
            if (source == null) {
                source = new URLBasedJWKSetSource<>(jwksUri(), retriever);
                keys = source;
            }
            JWKSet set = source.getJWKSet(refresh, now, context);
            lastFetchFailed = false;
            return set;
        } catch (KeySourceException e) {
            keys = null;
            lastFetchFailed = true;
            throw e;
        }
    }

    /** Whether the last fetch failed: then a fetch refused by the rate limit means the keys are unavailable, not unknown. */
    boolean lastFetchFailed() {
        return lastFetchFailed;
    }

    private URL jwksUri() throws KeySourceException {
        String document = (issuer.endsWith("/") ? issuer.substring(0, issuer.length() - 1) : issuer) + DISCOVERY;
        try {
            JsonNode discovery = Json.mapper().readTree(retriever.retrieveResource(URI.create(document).toURL()).getContent());
            String jwks = discovery.path("jwks_uri").asText("");
            URI uri = URI.create(jwks);
            if (!"https".equals(uri.getScheme()) || uri.getHost() == null) {
                throw new JWKSetRetrievalException(document + " names no https jwks_uri", null);
            }
            return uri.toURL();
        } catch (IOException | IllegalArgumentException e) {
            throw new JWKSetRetrievalException("cannot read " + document + ": " + e.getMessage(), e);
        }
    }

    @Override
    public void close() {
        // nothing held: every fetch opens and closes its own connection
    }
}
