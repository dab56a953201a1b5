package org.gridcache.pool.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpsConfigurator;
import com.sun.net.httpserver.HttpsServer;
import eu.emi.security.authn.x509.X509Credential;
import io.netty.channel.nio.NioEventLoopGroup;
import io.netty.channel.socket.nio.NioSocketChannel;
import io.netty.handler.codec.TooLongFrameException;
import io.netty.handler.codec.http.HttpMethod;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import javax.net.ssl.SSLHandshakeException;
import org.gridcache.common.security.GridCredentials;
import org.gridcache.common.security.GridTls;
import org.gridcache.common.security.GridTrust;
import org.gridcache.common.security.TestPki;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The pool's one HTTP client: whole answers from doors and peers over TLS it checks, and the ways an exchange fails. */
class PoolClientTest {
    private static final Duration LONG = Duration.ofSeconds(30);
    private NioEventLoopGroup group;
    private HttpsServer server;
    private PoolClient client;

    @BeforeEach
    void start() throws Exception {
        Path pki = TestPki.get();
        X509Credential host = GridCredentials.load(pki.resolve("host/cert.pem"), pki.resolve("host/key.pem"));
        GridTrust trust = GridTrust.load(pki.resolve("certificates"), pki.resolve("vomsdir"), Duration.ofMinutes(10));
        // every local address: reached as 127.0.0.2 too, a name its certificate does not carry
        server = HttpsServer.create(new InetSocketAddress(0), 10);
        server.setHttpsConfigurator(new HttpsConfigurator(GridTls.server(host)));
        server.createContext("/credential", ex -> answer(ex, 200, "-----BEGIN CERTIFICATE-----\n"));
        server.createContext("/big", ex -> answer(ex, 200, "x".repeat(PoolClient.MAX_ANSWER + 1)));
        server.start();
        group = new NioEventLoopGroup(1);
        client = new PoolClient(group, NioSocketChannel.class, new PoolSecurity(host, trust));
    }

    private static void answer(HttpExchange ex, int status, String body) throws IOException {
        byte[] bytes = body.getBytes(StandardCharsets.US_ASCII);
        ex.getResponseHeaders().set("X-Cache", "HIT");
        if (ex.getRequestMethod().equals("HEAD")) {
            ex.getResponseHeaders().set("Content-Length", Integer.toString(bytes.length)); // the size of what GET sends
            ex.sendResponseHeaders(status, -1);
        } else {
            ex.sendResponseHeaders(status, bytes.length);
            ex.getResponseBody().write(bytes);
        }
        ex.close();
    }

    @AfterEach
    void stop() throws Exception {
        server.stop(0);
        group.shutdownGracefully(0, 1, TimeUnit.SECONDS).sync();
    }

    private PoolClient.Answer exchange(HttpMethod method, String url, Duration timeout) throws Exception {
        URI uri = URI.create(url);
        return client.exchange(uri, PoolClient.request(method, uri), client.cluster(), LONG, timeout).get(60, TimeUnit.SECONDS);
    }

    private String url(String host, String path) {
        return "https://" + host + ":" + server.getAddress().getPort() + path;
    }

    @Test
    void aGetAnswersWithStatusHeadAndBody() throws Exception {
        PoolClient.Answer answer = exchange(HttpMethod.GET, url("localhost", "/credential"), LONG);
        assertEquals(200, answer.status());
        assertEquals("HIT", answer.headers().get("X-Cache"));
        assertEquals("-----BEGIN CERTIFICATE-----\n", answer.body());
    }

    /** An origin's HEAD names the size of the file, larger than any answer the client takes whole. */
    @Test
    void aHeadAnswersWithoutABodyWhateverItsContentLengthSays() throws Exception {
        PoolClient.Answer answer = exchange(HttpMethod.HEAD, url("127.0.0.1", "/big"), LONG);
        assertEquals(200, answer.status());
        assertEquals(Integer.toString(PoolClient.MAX_ANSWER + 1), answer.headers().get("Content-Length"));
        assertEquals("", answer.body());
    }

    @Test
    void aServerWhoseCertificateNamesAnotherHostIsRefused() {
        ExecutionException e = assertThrows(ExecutionException.class,
                () -> exchange(HttpMethod.GET, url("127.0.0.2", "/credential"), LONG));
        Throwable cause = e.getCause();
        while (cause.getCause() != null && !(cause instanceof SSLHandshakeException)) {
            cause = cause.getCause();
        }
        assertInstanceOf(SSLHandshakeException.class, cause, e.toString());
    }

    @Test
    void anAnswerLargerThanADoorsOrAPeersFails() {
        ExecutionException e = assertThrows(ExecutionException.class, () -> exchange(HttpMethod.GET, url("localhost", "/big"), LONG));
        assertInstanceOf(TooLongFrameException.class, e.getCause(), e.toString());
    }

    @Test
    void aServerThatNeverAnswersTimesOut() throws Exception {
        try (ServerSocket silent = new ServerSocket(0, 10, java.net.InetAddress.getLoopbackAddress())) {
            Thread accepting = new Thread(() -> {
                try (Socket held = silent.accept()) {
                    held.getInputStream().readAllBytes(); // until the client gives up and closes
                } catch (IOException ignored) {
                    // the test is over
                }
            });
            accepting.setDaemon(true);
            accepting.start();
            ExecutionException e = assertThrows(ExecutionException.class, () -> exchange(HttpMethod.HEAD,
                    "http://127.0.0.1:" + silent.getLocalPort() + "/f", Duration.ofMillis(300)));
            assertInstanceOf(TimeoutException.class, e.getCause());
            assertTrue(e.getCause().getMessage().contains("300 ms"), e.getCause().getMessage());
        }
    }
}
