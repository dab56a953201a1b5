package org.gridcache.systemtest;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.WebSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.gridcache.common.Json;

/**
 * Headless Chromium driven over its DevTools protocol (a WebSocket of the JDK's own client, no driver program): open
 * a page, evaluate script in it, click like a user does (a mouse press and release at an element's centre, so the
 * page's own listeners run) and take screenshots. One page, one fresh profile; closing it ends the browser.
 */
final class HeadlessChromium implements AutoCloseable {
    private static final Duration WAIT = Duration.ofSeconds(60);
    private final Process process;
    private volatile WebSocket socket;
    private final AtomicInteger ids = new AtomicInteger();
    private final Map<Integer, CompletableFuture<JsonNode>> answers = new ConcurrentHashMap<>();

    private HeadlessChromium(Process process) {
        this.process = process;
    }

    /** Starts Chromium with a fresh profile under {@code dir} (certificate errors ignored: the tests' CAs are their own). */
    static HeadlessChromium start(Path dir) throws Exception {
        Path profile = Files.createTempDirectory(dir, "chromium-profile");
        Process process = new ProcessBuilder("chromium", "--headless", "--no-sandbox", "--disable-gpu",
                "--disable-background-networking", "--disable-component-update", "--no-first-run", "--ignore-certificate-errors",
                "--remote-debugging-address=127.0.0.1", "--remote-debugging-port=0", "--user-data-dir=" + profile,
                "--window-size=1100,600", "about:blank")
                .redirectErrorStream(true).redirectOutput(dir.resolve(profile.getFileName() + ".log").toFile()).start();
        try {
            // Chromium writes the port it took (0: any free one) to its profile once it listens
            Path activePort = profile.resolve("DevToolsActivePort");
            Tools.await("Chromium's DevTools port in " + activePort, WAIT,
                    () -> Tools.readOrEmpty(activePort).lines().count() >= 2);
            String port = Tools.readOrEmpty(activePort).lines().findFirst().orElseThrow();
            HttpClient http = HttpClient.newHttpClient();
            AtomicReference<String> page = new AtomicReference<>();
            Tools.await("Chromium's page target", WAIT, () -> {
                page.set(pageTarget(http, port));
                return page.get() != null;
            });
            HeadlessChromium chromium = new HeadlessChromium(process);
            chromium.socket = http.newWebSocketBuilder().buildAsync(URI.create(page.get()), chromium.new Answers())
                    .get(WAIT.toSeconds(), TimeUnit.SECONDS);
            return chromium;
        } catch (Exception | AssertionError e) {
            process.destroyForcibly().waitFor();
            throw e;
        }
    }

    private static String pageTarget(HttpClient http, String port) {
        try {
            HttpResponse<String> list = http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/json/list"))
                    .timeout(Duration.ofSeconds(10)).build(), HttpResponse.BodyHandlers.ofString());
            for (JsonNode target : Json.mapper().readTree(list.body())) {
                if (target.path("type").asText().equals("page") && target.has("webSocketDebuggerUrl")) {
                    return target.get("webSocketDebuggerUrl").asText();
                }
            }
            return null;
        } catch (IOException e) {
            return null;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError(e);
        }
    }

    /** Opens {@code url} and waits until it has loaded. */
    void open(String url) {
        call("Page.navigate", Map.of("url", url));
        Tools.await("Chromium to load " + url, WAIT, () -> url.equals(evaluate("location.href").asText())
                && "complete".equals(evaluate("document.readyState").asText()));
    }

    /** The value of a script expression in the page (JSON: arrays, objects, strings, numbers). */
    JsonNode evaluate(String expression) {
        JsonNode result = call("Runtime.evaluate", Map.of("expression", expression, "returnByValue", true));
        if (result.has("exceptionDetails")) {
            throw new AssertionError("script failed: " + expression + ": " + result.get("exceptionDetails"));
        }
        return result.path("result").path("value");
    }

    /** A left click at the centre of the element {@code selector} picks, as a mouse gives it. */
    void click(String selector) {
        JsonNode at = evaluate("(function () { var e = document.querySelector(" + Json.string(selector) + ");"
                + " e.scrollIntoView({block: 'center'}); var r = e.getBoundingClientRect();"
                + " return {x: r.left + r.width / 2, y: r.top + r.height / 2}; })()");
        for (String type : List.of("mouseMoved", "mousePressed", "mouseReleased")) {
            call("Input.dispatchMouseEvent", Map.of("type", type, "x", at.get("x").asDouble(), "y", at.get("y").asDouble(),
                    "button", "left", "clickCount", 1));
        }
    }

    /** A PNG of the page as it is now, written to {@code png}. */
    void screenshot(Path png) throws IOException {
        Files.write(png, Base64.getDecoder().decode(call("Page.captureScreenshot", Map.of("format", "png")).get("data").asText()));
    }

    private JsonNode call(String method, Map<String, Object> params) {
        int id = ids.incrementAndGet();
        CompletableFuture<JsonNode> answer = new CompletableFuture<>();
        answers.put(id, answer);
        ObjectNode message = Json.mapper().createObjectNode().put("id", id).put("method", method);
        message.set("params", Json.mapper().valueToTree(params));
        try {
            socket.sendText(Json.string(message), true).get(WAIT.toSeconds(), TimeUnit.SECONDS);
            JsonNode reply = answer.get(WAIT.toSeconds(), TimeUnit.SECONDS);
            if (reply.has("error")) {
                throw new AssertionError(method + " failed: " + reply.get("error"));
            }
            return reply.get("result");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError(e);
        } catch (Exception e) {
            throw new AssertionError(method + " got no answer from Chromium", e);
        } finally {
            answers.remove(id);
        }
    }

    @Override
    public void close() throws InterruptedException {
        socket.abort();
        process.destroy();
        if (!process.waitFor(30, TimeUnit.SECONDS)) {
            process.destroyForcibly().waitFor();
        }
    }

    /** Completes each call's future with the message of its id; events (no id) are not needed. */
    private final class Answers implements WebSocket.Listener {
        private final StringBuilder partial = new StringBuilder();

        @Override
        public CompletionStage<?> onText(WebSocket webSocket, CharSequence data, boolean last) {
            partial.append(data);
            if (last) {
                try {
                    JsonNode message = Json.mapper().readTree(partial.toString());
                    CompletableFuture<JsonNode> answer = message.has("id") ? answers.get(message.get("id").asInt()) : null;
                    if (answer != null) {
                        answer.complete(message);
                    }
                } catch (IOException e) {
                    answers.values().forEach(a -> a.completeExceptionally(e));
                }
                partial.setLength(0);
            }
            webSocket.request(1);
            return null;
        }
    }
}
