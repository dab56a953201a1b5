package org.gridcache.pool.origin;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import eu.emi.security.authn.x509.X509Credential;
import io.netty.buffer.Unpooled;
import io.netty.channel.nio.NioEventLoopGroup;
import io.netty.channel.socket.nio.NioSocketChannel;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.gridcache.common.origin.CredentialMode;
import org.gridcache.common.origin.OriginEntry;
import org.gridcache.common.ticket.Ticket;
import org.gridcache.common.authz.BearerIdentity;
import org.gridcache.common.authz.TokenGrant;
import org.gridcache.common.security.GridCredentials;
import org.gridcache.common.security.GridTrust;
import org.gridcache.common.security.TestPki;
import org.gridcache.pool.http.PoolClient;
import org.gridcache.pool.http.PoolSecurity;
import org.gridcache.pool.access.DelegatedCredentials;
import org.gridcache.pool.http.FetchException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A pool and an origin mounted {@code --credential token}: the pool obtains the user's token from the door that issued
 * the ticket (a fake door here), and presents it as {@code Authorization: Bearer} on the permission HEAD and on an
 * upload; an origin that admits only that token lets both through, and a token the door no longer holds is the
 * client's 401.
 */
class TokenOriginTest {
    private static final String TOKEN = "eyJhbGciOiJFUzI1NiJ9.eyJzdWIiOiJhbGljZSJ9.c2lnbmF0dXJl";
    private static final BearerIdentity ALICE = new BearerIdentity("https://iss.example.org", "alice");
    private final Queue<String> originAuthorizations = new ConcurrentLinkedQueue<>();
    private final AtomicReference<String> doorAnswer = new AtomicReference<>();
    private final AtomicReference<Integer> doorStatus = new AtomicReference<>(200);
    private HttpServer server;
    private NioEventLoopGroup group;
    private HttpOriginFetcher fetcher;
    private OriginAccess access;
    private String base;

    @BeforeEach
    void start() throws Exception {
        server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 10);
        server.createContext("/.gridcache/credential", ex -> answer(ex, doorStatus.get(), doorAnswer.get()));
        server.createContext("/data/", this::origin);
        server.start();
        base = "http://127.0.0.1:" + server.getAddress().getPort();
        doorAnswer.set("{\"token_type\":\"Bearer\",\"access_token\":\"" + TOKEN + "\",\"expires_at\":"
                + (System.currentTimeMillis() / 1000 + 3600) + "}");
        group = new NioEventLoopGroup(1);
        List<OriginEntry> mounts = List.of(OriginEntry.of("o", "/data", base + "/data", "token"));
        Path pki = TestPki.get();
        X509Credential host = GridCredentials.load(pki.resolve("host/cert.pem"), pki.resolve("host/key.pem"));
        GridTrust trust = GridTrust.load(pki.resolve("certificates"), pki.resolve("vomsdir"), Duration.ofMinutes(10));
        PoolClient client = new PoolClient(group, NioSocketChannel.class, new PoolSecurity(host, trust));
        DelegatedCredentials credentials = new DelegatedCredentials(client);
        fetcher = new HttpOriginFetcher(client, Duration.ofSeconds(30), credentials,
                new RedirectPolicy(() -> mounts, List::of));
        access = new OriginAccess(credentials, new Origins(List.of(fetcher)), () -> Duration.ofMinutes(5));
    }

    /** The origin: only Alice's token, anything else 403; HEAD and PUT. */
    private void origin(HttpExchange ex) throws IOException {
        String authorization = ex.getRequestHeaders().getFirst("Authorization");
        originAuthorizations.add(ex.getRequestMethod() + " " + authorization);
        ex.getRequestBody().readAllBytes();
        int status = ("Bearer " + TOKEN).equals(authorization) ? (ex.getRequestMethod().equals("PUT") ? 201 : 200) : 403;
        ex.sendResponseHeaders(status, -1);
        ex.close();
    }

    private static void answer(HttpExchange ex, int status, String body) throws IOException {
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        ex.getResponseHeaders().set("Content-Type", "application/json");
        ex.sendResponseHeaders(status, bytes.length == 0 ? -1 : bytes.length);
        ex.getResponseBody().write(bytes);
        ex.close();
    }

    @AfterEach
    void stop() throws Exception {
        server.stop(0);
        group.shutdownGracefully(0, 1, TimeUnit.SECONDS).sync();
    }

    private Ticket ticket(String operation) {
        return new Ticket("/data/f", "p1", operation, System.currentTimeMillis() / 1000, System.currentTimeMillis() / 1000 + 60,
                ALICE.name(), "door1", base + "/data/f", 5, -1, null, List.of(), CredentialMode.TOKEN,
                base + "/.gridcache/credential", List.of(), null, new TokenGrant(ALICE, null, List.of(), "ab12"));
    }

    @Test
    void thePermissionHeadPresentsTheUsersTokenFromTheDoor() throws Exception {
        access.check(ticket(Ticket.READ), "signed-ticket", false).get(30, TimeUnit.SECONDS);
        assertEquals(List.of("HEAD Bearer " + TOKEN), List.copyOf(originAuthorizations));
    }

    @Test
    void anUploadPresentsTheUsersToken() throws Exception {
        Ticket write = ticket(Ticket.WRITE);
        DelegatedCredentials.OriginCredential credential = access.credential(write, "signed-ticket").get(30, TimeUnit.SECONDS);
        assertEquals(TOKEN, credential.bearerToken());
        assertNull(credential.credential(), "no certificate goes with a token");
        assertEquals("credential of " + ALICE.name(), credential.toString(), "never the token");
        HttpOriginUploader uploader = new HttpOriginUploader(fetcher);
        OriginUploader.Upload upload = uploader.start(URI.create(write.originUrl()), 5, write).get(30, TimeUnit.SECONDS);
        upload.write(Unpooled.copiedBuffer("hello", StandardCharsets.US_ASCII)).get(30, TimeUnit.SECONDS);
        OriginUploader.Result result = upload.finish().get(30, TimeUnit.SECONDS);
        assertEquals(201, result.status());
        assertTrue(originAuthorizations.contains("PUT Bearer " + TOKEN), originAuthorizations.toString());
    }

    @Test
    void anOriginRefusingTheTokenIsA403() throws Exception {
        doorAnswer.set(doorAnswer.get().replace(TOKEN, "someone-elses-token"));
        ExecutionException e = assertThrows(ExecutionException.class,
                () -> access.check(ticket(Ticket.READ), "signed-ticket", false).get(30, TimeUnit.SECONDS));
        FetchException refused = assertInstanceOf(DelegatedCredentials.CompletionFailure.class, e.getCause()).reason();
        assertEquals(403, refused.status().code());
        assertEquals(List.of("HEAD Bearer someone-elses-token"), List.copyOf(originAuthorizations));
    }

    @Test
    void aTokenTheDoorNoLongerHoldsIsTheClients401AndTheOriginIsNotAsked() {
        doorStatus.set(404);
        doorAnswer.set("");
        ExecutionException e = assertThrows(ExecutionException.class,
                () -> access.check(ticket(Ticket.READ), "signed-ticket", false).get(30, TimeUnit.SECONDS));
        FetchException refused = assertInstanceOf(DelegatedCredentials.CompletionFailure.class, e.getCause()).reason();
        assertEquals(401, refused.status().code());
        assertTrue(refused.getMessage().startsWith("your bearer token has expired or is no longer held by the door"), refused.getMessage());
        assertTrue(originAuthorizations.isEmpty());
    }

    @Test
    void anUnusableAnswerOfTheDoorIs502() {
        doorAnswer.set("{\"token_type\":\"Bearer\"}");
        ExecutionException e = assertThrows(ExecutionException.class,
                () -> access.check(ticket(Ticket.READ), "signed-ticket", false).get(30, TimeUnit.SECONDS));
        FetchException refused = assertInstanceOf(DelegatedCredentials.CompletionFailure.class, e.getCause()).reason();
        assertEquals(502, refused.status().code());
        assertEquals("the door sent an unusable bearer token", refused.getMessage());
    }

    @Test
    void withoutTheTokenInHandTheFetcherPresentsNothingAndSays401() {
        // tlsFor is asked only after the check obtained the token; without it, the mode's 401
        FetchException e = assertThrows(FetchException.class, () -> fetcher.tlsFor(ticket(Ticket.READ)));
        assertEquals(401, e.status().code());
        assertTrue(e.getMessage().contains("no bearer token of " + ALICE.name()), e.getMessage());
    }
}
