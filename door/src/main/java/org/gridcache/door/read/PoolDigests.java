package org.gridcache.door.read;

import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.eclipse.jetty.client.ContentResponse;
import org.eclipse.jetty.client.HttpClient;
import org.eclipse.jetty.http.HttpMethod;
import org.gridcache.common.checksum.DigestRequest;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Asks a pool for a file's checksums: a {@code HEAD} of the ticketed pool URL carrying the client's
 * {@code Want-Digest} / {@code Want-Repr-Digest} (the pool answers from the file's sidecar, or fills the file once
 * and answers), or with the peers' {@code X-Gridcache-Only-If-Cached} question (the pool answers from its index
 * only, never fetching). The door never computes a checksum itself; it relays what the pool says.
 */
public final class PoolDigests {
    private static final Logger LOG = LoggerFactory.getLogger(PoolDigests.class);
    /** The pools' question header: answer from what you hold, never fetch. */
    static final String ONLY_IF_CACHED = "X-Gridcache-Only-If-Cached";
    private final HttpClient http;

    /** What the pool said: its {@code Digest} and {@code Repr-Digest} values, either may be null. */
    public record Answer(String digest, String reprDigest) {
    }

    public PoolDigests(HttpClient http) {
        this.http = http;
    }

    /** The pool's digest headers for a HEAD of {@code poolUrl} with {@code headers}; empty unless it answered 200. */
    Optional<Answer> head(String poolUrl, Map<String, String> headers, Duration timeout, String poolId) {
        try {
            ContentResponse r = http.newRequest(poolUrl).method(HttpMethod.HEAD).followRedirects(false)
                    .headers(h -> headers.forEach(h::put))
                    .timeout(timeout.toMillis(), TimeUnit.MILLISECONDS).send();
            if (r.getStatus() != 200) {
                LOG.debug("pool {} answered {} to a checksum question", poolId, r.getStatus());
                return Optional.empty();
            }
            return Optional.of(new Answer(r.getHeaders().get(DigestRequest.DIGEST), r.getHeaders().get(DigestRequest.REPR_DIGEST)));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return Optional.empty();
        } catch (TimeoutException e) {
            LOG.info("pool {} gave no checksum within {} s", poolId, timeout.toSeconds());
            return Optional.empty();
        } catch (ExecutionException e) {
            Throwable cause = e.getCause() != null ? e.getCause() : e;
            LOG.info("pool {} unreachable for a checksum question ({})", poolId, cause.getClass().getSimpleName());
            return Optional.empty();
        }
    }
}
