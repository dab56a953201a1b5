package org.gridcache.door.auth.token;

import com.fasterxml.jackson.databind.JsonNode;
import com.nimbusds.jose.jwk.JWKSet;
import com.nimbusds.jose.jwk.source.ImmutableJWKSet;
import com.nimbusds.jose.jwk.source.JWKSource;
import com.nimbusds.jose.jwk.source.JWKSourceBuilder;
import com.nimbusds.jose.proc.SecurityContext;
import com.nimbusds.jose.util.DefaultResourceRetriever;
import com.nimbusds.jose.util.ResourceRetriever;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.text.ParseException;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.function.BooleanSupplier;
import org.gridcache.common.Json;
import org.gridcache.common.security.GridTrust;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The issuers of {@code --token-issuers FILE} with their keys, re-read when the file or one of its JWKS files changes:
 * at most once a {@link #CHECK_MILLIS} a token's verification looks at their modification times and sizes. A file
 * that no longer reads (bad JSON, a bad entry, a JWKS file gone) is logged and the previous issuers stay in force; a
 * bad file at start-up stops the door. Discovered keys are cached for {@link #KEYS_TTL} and fetched again on a {@code
 * kid} not among them, at most once a {@code minRefetch} per issuer (nimbus' {@code JWKSourceBuilder}), so a stream
 * of tokens with made-up key ids cannot make the door hammer an issuer.
 */
public final class TokenIssuers {
    private static final Logger LOG = LoggerFactory.getLogger(TokenIssuers.class);
    static final long CHECK_MILLIS = 1000;
    static final Duration KEYS_TTL = Duration.ofMinutes(15);
    static final Duration FETCH_TIMEOUT = Duration.ofSeconds(10);
    static final Duration MIN_REFETCH = Duration.ofSeconds(30);
    private static final int MAX_DOCUMENT_BYTES = 256 * 1024;
    private final Path file;
    private final ResourceRetriever retriever;
    private final Duration minRefetch;
    private final Clock clock;
    private volatile Map<String, Issuer> issuers;
    private volatile long nextCheck;
    private Map<Path, String> seen;

    /**
     * A configured issuer, the source of its keys, and whether they are unavailable (its last fetch failed), which tells
     * a fetch refused by the rate limit for an unreachable issuer (503) from one for an unknown key id (401).
     */
    public record Issuer(TokenIssuer config, JWKSource<SecurityContext> keys, BooleanSupplier unavailable) {
    }

    /** Reads {@code file} now (an {@link IOException} naming the problem when it is bad); keys fetched over {@code trust}. */
    public static TokenIssuers load(Path file, GridTrust trust) throws IOException {
        return new TokenIssuers(file, retriever(trust), MIN_REFETCH, Clock.systemUTC());
    }

    TokenIssuers(Path file, ResourceRetriever retriever, Duration minRefetch, Clock clock) throws IOException {
        this.file = file;
        this.retriever = retriever;
        this.minRefetch = minRefetch;
        this.clock = clock;
        try {
            this.seen = stamps(file, List.of());
            this.issuers = read(Map.of());
        } catch (IOException | IllegalArgumentException e) {
            throw new IOException("token issuers " + file + ": " + e.getMessage(), e);
        }
        this.nextCheck = clock.millis() + CHECK_MILLIS;
        LOG.info("token issuers {}: {}", file, issuers.keySet());
    }

    /** The fetcher of discovery documents and keys: short timeouts, bounded size, HTTPS trusting {@link IssuerTrust}. */
    static ResourceRetriever retriever(GridTrust trust) {
        int timeout = (int) FETCH_TIMEOUT.toMillis();
        return new DefaultResourceRetriever(timeout, timeout, MAX_DOCUMENT_BYTES, true, IssuerTrust.socketFactory(trust));
    }

    /** The issuer whose {@code iss} is {@code issuer}, if configured. */
    public Optional<Issuer> of(String issuer) {
        long now = clock.millis();
        if (now >= nextCheck) {
            reloadIfChanged(now);
        }
        return Optional.ofNullable(issuers.get(issuer));
    }

    private synchronized void reloadIfChanged(long now) {
        if (now < nextCheck) {
            return;
        }
        nextCheck = now + CHECK_MILLIS;
        try {
            List<Path> jwks = issuers.values().stream().map(i -> i.config().jwks()).filter(Objects::nonNull).toList();
            Map<Path, String> stamps = stamps(file, jwks);
            if (stamps.equals(seen)) {
                return;
            }
            seen = stamps;
            issuers = read(issuers);
            seen = stamps(file, issuers.values().stream().map(i -> i.config().jwks()).filter(Objects::nonNull).toList());
            LOG.info("token issuers {} reloaded: {}", file, issuers.keySet());
        } catch (IOException | IllegalArgumentException e) {
            LOG.error("token issuers {} not reloaded, the previous ones stay in force: {}", file, e.getMessage());
        }
    }

    /** Each file's modification time and size: a change of either is a change. */
    private static Map<Path, String> stamps(Path file, List<Path> jwks) throws IOException {
        Map<Path, String> stamps = new LinkedHashMap<>();
        stamps.put(file, Files.getLastModifiedTime(file) + "/" + Files.size(file));
        for (Path j : jwks) {
            stamps.put(j, Files.exists(j) ? Files.getLastModifiedTime(j) + "/" + Files.size(j) : "gone");
        }
        return stamps;
    }

    private Map<String, Issuer> read(Map<String, Issuer> previous) throws IOException {
        JsonNode list;
        try {
            list = Json.mapper().readTree(Files.readAllBytes(file));
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new IllegalArgumentException("not JSON: " + e.getOriginalMessage());
        }
        Path dir = file.toAbsolutePath().getParent();
        Map<String, Issuer> loaded = new LinkedHashMap<>();
        List<String> problems = new ArrayList<>();
        for (TokenIssuer config : TokenIssuer.parseAll(list, dir)) {
            Issuer old = previous.get(config.issuer());
            if (old != null && config.jwks() == null && old.config().jwks() == null) {
                loaded.put(config.issuer(), new Issuer(config, old.keys(), old.unavailable())); // keep what discovery fetched and cached
                continue;
            }
            try {
                loaded.put(config.issuer(), issuer(config));
            } catch (IllegalArgumentException e) {
                problems.add("issuer " + config.issuer() + ": " + e.getMessage());
            }
        }
        if (!problems.isEmpty()) {
            throw new IllegalArgumentException(String.join("; ", problems));
        }
        return Map.copyOf(loaded);
    }

    private Issuer issuer(TokenIssuer config) throws IOException {
        if (config.jwks() != null) {
            try {
                JWKSet set = JWKSet.load(config.jwks().toFile()).toPublicJWKSet();
                if (set.isEmpty()) {
                    throw new IllegalArgumentException("jwks " + config.jwks() + " holds no public key");
                }
                return new Issuer(config, new ImmutableJWKSet<>(set), () -> false);
            } catch (ParseException e) {
                throw new IllegalArgumentException("jwks " + config.jwks() + " is not a JWK set: " + e.getMessage());
            } catch (java.nio.file.NoSuchFileException | java.io.FileNotFoundException e) {
                throw new IllegalArgumentException("jwks " + config.jwks() + " does not exist");
            }
        }
        DiscoveredJwkSet discovered = new DiscoveredJwkSet(config.issuer(), retriever);
        return new Issuer(config, JWKSourceBuilder.create(discovered)
                .cache(KEYS_TTL.toMillis(), FETCH_TIMEOUT.toMillis())
                .refreshAheadCache(false)
                .rateLimited(minRefetch.toMillis())
                .build(), discovered::lastFetchFailed);
    }
}
