package org.gridcache.systemtest;

import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Arrays;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assertions;

/**
 * A PUT through the door that follows its 307 to a pool, sends the first half of its body and then holds until
 * {@link #finish()}: while held it is surely in progress, so a test can look at it without racing its end. Closing it
 * lets it finish, so a failed assertion leaves no connection hanging.
 */
final class HeldUpload implements AutoCloseable {
    private static final Duration WAIT = Duration.ofSeconds(60);
    private final CountDownLatch release = new CountDownLatch(1);
    private final CompletableFuture<HttpResponse<String>> answer;

    private HeldUpload(HttpClient http, URI pool, long size) {
        HttpRequest put = HttpRequest.newBuilder(pool).timeout(WAIT).expectContinue(true)
                .PUT(HttpRequest.BodyPublishers.fromPublisher(HttpRequest.BodyPublishers.ofInputStream(() -> new HalfThenHeld(size)), size))
                .build();
        answer = http.sendAsync(put, HttpResponse.BodyHandlers.ofString());
    }

    /** Asks the door where to put {@code size} bytes at {@code url} (its 307, before any byte is sent) and starts there. */
    static HeldUpload start(String url, long size) throws Exception {
        HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).followRedirects(HttpClient.Redirect.NEVER)
                .build();
        HttpRequest ask = HttpRequest.newBuilder(URI.create(url)).timeout(WAIT).expectContinue(true)
                .PUT(HttpRequest.BodyPublishers.fromPublisher(HttpRequest.BodyPublishers.noBody(), size)).build();
        HttpResponse<String> redirect = http.send(ask, HttpResponse.BodyHandlers.ofString());
        Assertions.assertEquals(307, redirect.statusCode(), redirect.body());
        return new HeldUpload(http, URI.create(redirect.headers().firstValue("Location").orElseThrow()), size);
    }

    /** Sends the rest of the body and returns the pool's status. */
    int finish() throws Exception {
        release.countDown();
        HttpResponse<String> response = answer.get(WAIT.toSeconds(), TimeUnit.SECONDS);
        return response.statusCode();
    }

    @Override
    public void close() throws InterruptedException {
        release.countDown();
        try {
            answer.get(WAIT.toSeconds(), TimeUnit.SECONDS);
        } catch (java.util.concurrent.ExecutionException | java.util.concurrent.TimeoutException e) {
            // closed after a failed assertion: that failure is the one to report, not this upload's
        }
    }

    /** {@code size} bytes of 'h', the second half only once released. */
    private final class HalfThenHeld extends InputStream {
        private final long size;
        private long sent;

        HalfThenHeld(long size) {
            this.size = size;
        }

        @Override
        public int read() {
            byte[] one = new byte[1];
            return read(one, 0, 1) < 0 ? -1 : one[0] & 0xff;
        }

        @Override
        public int read(byte[] b, int off, int len) {
            if (sent == size) {
                return -1;
            }
            if (sent >= size / 2) {
                awaitRelease();
            }
            int n = (int) Math.min(len, (sent < size / 2 ? size / 2 : size) - sent);
            Arrays.fill(b, off, off + n, (byte) 'h');
            sent += n;
            return n;
        }

        private void awaitRelease() {
            try {
                if (!release.await(WAIT.toSeconds(), TimeUnit.SECONDS)) {
                    throw new IllegalStateException("held upload never released");
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException(e);
            }
        }
    }
}
