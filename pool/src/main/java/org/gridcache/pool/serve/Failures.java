package org.gridcache.pool.serve;

import io.netty.handler.codec.http.HttpResponseStatus;
import java.io.IOException;
import java.util.concurrent.CompletionException;
import org.gridcache.pool.access.DelegatedCredentials;
import org.gridcache.pool.http.FetchException;
import org.gridcache.pool.http.Refusal;

/**
 * Where what the store, the fetchers, the origin clients and the permission checks report becomes what a client
 * reads: the one place that maps their failures to a status and a one-line reason.
 */
final class Failures {
    private Failures() {
    }

    /**
     * The refusal an asynchronous step's failure means (unwrapped from a {@link CompletionException} or a
     * permission check's {@link DelegatedCredentials.CompletionFailure}); null for one the pool did not expect (a
     * bug, an I/O error nobody reported): the caller logs it and answers in its own words.
     */
    static Refusal of(Throwable error) {
        Throwable cause = error instanceof CompletionException && error.getCause() != null ? error.getCause() : error;
        if (cause instanceof DelegatedCredentials.CompletionFailure failure) {
            cause = failure.reason();
        }
        if (cause instanceof Refusal refusal) {
            return refusal;
        }
        if (cause instanceof FetchException e) {
            return new Refusal(e.status(), e.getMessage());
        }
        return null;
    }

    /**
     * The store's disk failed ({@code what}: "open its store for /f"): 507 when the file system is full (its
     * accounting did not know: something else filled the disk), else 500 with {@code otherwise} (never the
     * file system's words, which name the pool's paths).
     */
    static Refusal store(String what, IOException e, String otherwise) {
        return FetchException.isNoSpace(e)
                ? new Refusal(HttpResponseStatus.INSUFFICIENT_STORAGE, "pool cannot " + what + ": its disk is full")
                : new Refusal(HttpResponseStatus.INTERNAL_SERVER_ERROR, otherwise);
    }
}
