package org.gridcache.pool.access;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import com.github.benmanes.caffeine.cache.Expiry;
import eu.emi.security.authn.x509.X509Credential;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.ssl.SslContext;
import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.function.Function;
import java.util.function.Supplier;
import com.fasterxml.jackson.databind.JsonNode;
import org.gridcache.common.origin.CredentialMode;
import org.gridcache.common.Json;
import org.gridcache.common.ticket.Ticket;
import org.gridcache.common.security.GridCredentials;
import org.gridcache.pool.http.FetchException;
import org.gridcache.pool.http.PoolClient;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The users' credentials this pool fetches with, obtained from the door that issued the ticket: an HTTPS GET of the
 * ticket's {@code credentialUrl} in which the pool presents its host certificate (the door admits only its configured
 * pool identities, by their end-entity certificates) and the ticket itself. The door answers with a short-lived proxy
 * (at most an hour) that it derives from the user's delegation for this pool, never the delegation itself. Each origin access that needs the credential asks the door
 * again ({@link #obtain}), so that a delegation the user destroyed is refused from that moment on; concurrent asks for
 * one credential share one request. The answer is kept in memory only, per (door, DN, FQANs), to hand it to
 * the fetch that follows the check ({@link #cached}), for {@link #HAND_OFF} at most: long enough for that fetch to
 * start, short enough that no later access uses a delegation the user has destroyed since.
 *
 * <p>For an origin mounted {@code --credential token} the door hands out the user's bearer token instead (JSON,
 * {@code access_token} and {@code expires_at}), kept the same way: in memory, per token (the ticket's {@code tokref}),
 * for {@link #HAND_OFF} at most and never beyond the token's expiry.
 */
public final class DelegatedCredentials {
    private static final Logger LOG = LoggerFactory.getLogger(DelegatedCredentials.class);
    private static final Duration TIMEOUT = Duration.ofSeconds(30);
    /** A credential this close to its end is fetched anew rather than used for a fetch that may take long. */
    private static final Duration MARGIN = Duration.ofMinutes(1);
    private static final Duration HAND_OFF = Duration.ofSeconds(30);
    private final PoolClient client;
    private final Cache<String, OriginCredential> handOff;
    private final ConcurrentMap<String, CompletableFuture<OriginCredential>> asking = new ConcurrentHashMap<>();

    /**
     * A user's credential and the TLS context presenting it; or, for a token origin, the user's {@code bearerToken}
     * (then {@code credential} and {@code tls} are null).
     */
    public record OriginCredential(String dn, X509Credential credential, Supplier<SslContext> tls, long notAfterMillis,
                                   String bearerToken) {
        public OriginCredential(String dn, X509Credential credential, Supplier<SslContext> tls, long notAfterMillis) {
            this(dn, credential, tls, notAfterMillis, null);
        }

        @Override
        public String toString() {
            return "credential of " + dn; // never the key, never the token
        }
    }

    /** Asks doors with {@code client}, presenting the pool's host certificate ({@link PoolClient#cluster}). */
    public DelegatedCredentials(PoolClient client) {
        this.client = client;
        this.handOff = Caffeine.newBuilder().maximumSize(10_000).expireAfter(new Expiry<String, OriginCredential>() {
            @Override
            public long expireAfterCreate(String key, OriginCredential value, long now) {
                Duration usable = Duration.ofMillis(value.notAfterMillis() - System.currentTimeMillis()).minus(MARGIN);
                return Math.max(0, Math.min(HAND_OFF.toNanos(), usable.toNanos()));
            }

            @Override
            public long expireAfterUpdate(String key, OriginCredential value, long now, long current) {
                return expireAfterCreate(key, value, now);
            }

            @Override
            public long expireAfterRead(String key, OriginCredential value, long now, long current) {
                return current;
            }
        }).build();
    }

    /** The credential of the ticket's user that {@link #obtain} last received, or null (then obtain it first). */
    public OriginCredential cached(Ticket ticket) {
        return handOff.getIfPresent(key(ticket));
    }

    /**
     * The ticket's user's credential from the issuing door, to which the pool shows the ticket as it came
     * ({@code token}); never from the hand-off, which could outlive a destroyed delegation. Fails with a
     * {@link CompletionFailure} carrying the status to answer.
     */
    public CompletableFuture<OriginCredential> obtain(Ticket ticket, String token) {
        String key = key(ticket);
        CompletableFuture<OriginCredential> mine = new CompletableFuture<>();
        CompletableFuture<OriginCredential> running = asking.putIfAbsent(key, mine);
        if (running != null) {
            return running;
        }
        ask(ticket, token).whenComplete((credential, error) -> {
            asking.remove(key, mine);
            if (error != null) {
                mine.completeExceptionally(error);
            } else {
                mine.complete(credential);
            }
        });
        return mine;
    }

    private CompletableFuture<OriginCredential> ask(Ticket ticket, String token) {
        URI url;
        try {
            url = URI.create(ticket.credentialUrl() + "?" + Ticket.QUERY_PARAMETER + "="
                    + URLEncoder.encode(token, StandardCharsets.US_ASCII));
        } catch (IllegalArgumentException | NullPointerException e) {
            return CompletableFuture.failedFuture(new FetchException(HttpResponseStatus.BAD_GATEWAY, "ticket names no credential endpoint"));
        }
        return client.exchange(url, PoolClient.request(HttpMethod.GET, url), client.cluster(), TIMEOUT, TIMEOUT)
                .handle((response, error) -> {
                    if (error != null) {
                        LOG.warn("cannot reach door {} for the credential of {}: {}", host(url), ticket.subject(), error.toString());
                        throw new CompletionFailure(FetchException.badGateway("the door that issued the ticket is unreachable"));
                    }
                    return accept(ticket, url, response);
                });
    }

    private OriginCredential accept(Ticket ticket, URI url, PoolClient.Answer response) {
        int status = response.status();
        if (status == 404) {
            handOff.invalidate(key(ticket));
            throw new CompletionFailure(new FetchException(HttpResponseStatus.UNAUTHORIZED, ticket.credential() == CredentialMode.TOKEN
                    ? "your bearer token has expired or is no longer held by the door: send a valid token to the door again"
                    : "your delegated credential has expired or was destroyed: delegate again"));
        }
        if (status != 200) {
            LOG.warn("door {} refused the credential of {} to this pool: {} {}", host(url), ticket.subject(), status,
                    response.body().lines().findFirst().orElse(""));
            throw new CompletionFailure(FetchException.badGateway("the door refuses this pool the user's credential (HTTP " + status + ")"));
        }
        if (ticket.credential() == CredentialMode.TOKEN) {
            return acceptToken(ticket, url, response.body());
        }
        try {
            X509Credential credential = GridCredentials.fromPem(response.body());
            long notAfter = Long.MAX_VALUE;
            for (X509Certificate c : credential.getCertificateChain()) {
                notAfter = Math.min(notAfter, c.getNotAfter().getTime());
            }
            OriginCredential oc = new OriginCredential(ticket.subject(), credential, client.presenting(credential), notAfter);
            handOff.put(key(ticket), oc);
            LOG.info("obtained the credential of {} from door {}, valid until {}", ticket.subject(), host(url),
                    java.time.Instant.ofEpochMilli(notAfter));
            return oc;
        } catch (IOException | RuntimeException e) {
            throw new CompletionFailure(FetchException.badGateway("the door sent an unusable credential"));
        }
    }

    /** The door's JSON answer for a token origin: the token and its expiry. */
    private OriginCredential acceptToken(Ticket ticket, URI url, String body) {
        String token;
        long expiresAt;
        try {
            JsonNode answer = Json.mapper().readTree(body);
            token = answer.path("access_token").asText(null);
            expiresAt = answer.path("expires_at").asLong(0);
        } catch (IOException | RuntimeException e) {
            token = null;
            expiresAt = 0;
        }
        if (token == null || token.isBlank() || token.contains("\n") || expiresAt <= 0) {
            throw new CompletionFailure(FetchException.badGateway("the door sent an unusable bearer token"));
        }
        OriginCredential oc = new OriginCredential(ticket.subject(), null, null, expiresAt * 1000, token);
        handOff.put(key(ticket), oc);
        LOG.info("obtained the bearer token of {} from door {}, valid until {}", ticket.subject(), host(url),
                java.time.Instant.ofEpochSecond(expiresAt));
        return oc;
    }

    /** Per door, subject and attributes; per token too, as two tokens of one subject may grant different things. */
    private static String key(Ticket ticket) {
        String key = ticket.credentialUrl() + "\n" + ticket.subject() + "\n" + String.join(",", ticket.fqans());
        return ticket.token().tokenRef() == null ? key : key + "\n" + ticket.token().tokenRef();
    }

    private static String host(URI url) {
        return url.getHost() + ":" + url.getPort();
    }

    /**
     * The credential a pool fetcher presents for {@code ticket}, in that fetcher's form: {@code anonymous},
     * {@code host} (the pool's own), or the user's delegated credential, cached here, as {@code delegated} makes it.
     * The one credential choice of all pool fetchers ({@link CredentialMode#choose}); a missing credential becomes
     * the status it names. {@code credentials} null: a pool without TLS, which holds no user credentials.
     */
    public static <C> C choose(Ticket ticket, DelegatedCredentials credentials, C anonymous, C host,
                               Function<OriginCredential, C> delegated) throws FetchException {
        try {
            return ticket.credential().choose(anonymous, host, () -> {
                OriginCredential c = credentials == null ? null : credentials.cached(ticket);
                return c == null ? null : delegated.apply(c);
            }, "pool", ticket.subject());
        } catch (CredentialMode.MissingCredential e) {
            throw new FetchException(HttpResponseStatus.valueOf(e.status()), e.getMessage());
        }
    }

    /** Carries a {@link FetchException} through a future. */
    public static final class CompletionFailure extends RuntimeException {
        private static final long serialVersionUID = 1L;
        private final transient FetchException reason;

        public CompletionFailure(FetchException reason) {
            super(reason.getMessage(), null, false, false);
            this.reason = reason;
        }

        public FetchException reason() {
            return reason;
        }
    }
}
