package org.gridcache.door.auth;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import com.github.benmanes.caffeine.cache.Expiry;
import com.nimbusds.jwt.JWTParser;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.text.ParseException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Date;
import java.util.HexFormat;
import java.util.Optional;

/**
 * The bearer tokens this door accepted, in memory only, so that origins mounted {@code --credential token} can be
 * sent the user's own token: by the door itself (listings, proxied writes) and, through the credential endpoint, by
 * the pool a ticket names. Keyed by the SHA-256 of the token, which is all a subject or a ticket carries of it; each
 * token is kept until its own {@code exp} (a JWT's; a token whose expiry the door cannot read, such as a macaroon,
 * {@link #UNREADABLE_EXPIRY}), never beyond {@link #LONGEST}; bounded in number, the least recently kept going first.
 * Tokens are never logged, written to disk or to ZooKeeper: a door that restarts has none, and its pools are told 404
 * (the client sends its token again with its next request).
 */
public final class TokenVault {
    /** How long a token is kept whose expiry cannot be read. */
    public static final Duration UNREADABLE_EXPIRY = Duration.ofHours(1);
    /** The longest any token is kept, whatever its {@code exp} says. */
    public static final Duration LONGEST = Duration.ofHours(12);
    private static final int DEFAULT_SIZE = 100_000;
    private final Clock clock;
    private final Cache<String, KeptToken> tokens;

    /** A token and when it stops being valid. {@link #toString} never shows the token. */
    public record KeptToken(String token, Instant expiry) {
        @Override
        public String toString() {
            return "bearer token until " + expiry;
        }
    }

    public TokenVault(Clock clock) {
        this(clock, DEFAULT_SIZE);
    }

    public TokenVault(Clock clock, int maximumSize) {
        this.clock = clock;
        this.tokens = Caffeine.newBuilder().maximumSize(maximumSize).expireAfter(new Expiry<String, KeptToken>() {
            @Override
            public long expireAfterCreate(String key, KeptToken value, long now) {
                return Math.max(0, Duration.between(clock.instant(), value.expiry()).toNanos());
            }

            @Override
            public long expireAfterUpdate(String key, KeptToken value, long now, long current) {
                return expireAfterCreate(key, value, now);
            }

            @Override
            public long expireAfterRead(String key, KeptToken value, long now, long current) {
                return current;
            }
        }).build();
    }

    /** The hex SHA-256 of {@code token}: its reference in subjects, tickets and this vault. */
    public static String ref(String token) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(token.getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("no SHA-256", e);
        }
    }

    /** Keeps {@code token}, an accepted one, until its expiry; returns its reference. */
    public String keep(String token) {
        String ref = ref(token);
        Instant now = clock.instant();
        Instant latest = now.plus(LONGEST);
        Instant expiry = expiryOf(token).orElse(now.plus(UNREADABLE_EXPIRY));
        KeptToken kept = new KeptToken(token, expiry.isAfter(latest) ? latest : expiry);
        if (kept.expiry().isAfter(now)) {
            // every request keeps its token again: the first keeping stands, so that the token's identity towards
            // origins (hash and expiry, the listing cache's key) stays the same for each request that sends it
            tokens.asMap().putIfAbsent(ref, kept);
        }
        return ref;
    }

    /** The token kept under {@code ref}, while it is valid. */
    public Optional<KeptToken> get(String ref) {
        if (ref == null) {
            return Optional.empty();
        }
        KeptToken kept = tokens.getIfPresent(ref);
        return kept == null || !kept.expiry().isAfter(clock.instant()) ? Optional.empty() : Optional.of(kept);
    }

    /** Tokens kept now (for tests and metrics). */
    public long size() {
        tokens.cleanUp();
        return tokens.estimatedSize();
    }

    /**
     * A verifier that keeps every token {@code verifier} accepts and puts its reference in the subject; what it
     * refuses is not kept. Whatever kind the token is (a JWT, a macaroon), an origin mounted {@code --credential token}
     * is sent the token as the client sent it.
     */
    public BearerVerifier keeping(BearerVerifier verifier) {
        return (token, request) -> verifier.verify(token, request).map(subject -> subject.withTokenRef(keep(token)));
    }

    /** A JWT's {@code exp}, read without checking the signature (the token was verified before it is kept). */
    private static Optional<Instant> expiryOf(String token) {
        try {
            Date exp = JWTParser.parse(token).getJWTClaimsSet().getExpirationTime();
            return Optional.ofNullable(exp).map(Date::toInstant);
        } catch (ParseException | RuntimeException e) {
            return Optional.empty();
        }
    }
}
