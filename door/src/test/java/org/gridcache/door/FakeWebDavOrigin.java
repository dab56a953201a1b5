package org.gridcache.door;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicInteger;
import org.gridcache.common.GridPath;
import org.gridcache.common.UrlCodec;

/**
 * A WebDAV origin that answers PROPFIND with canned multistatus documents (absolute and relative hrefs,
 * percent-encoded names) and counts every request it receives. Everything lives below {@code /dav}. Writes are
 * refused: a PUT of {@code …/refused.bin} with 403 before its body is read, of {@code …/full.bin} with 507 (no space),
 * anything else with 405.
 */
final class FakeWebDavOrigin implements AutoCloseable {
    record Node(boolean collection, long size, int status) {
    }

    final AtomicInteger requests = new AtomicInteger();
    private final Map<String, Node> nodes = new TreeMap<>();
    private final HttpServer server;

    FakeWebDavOrigin() throws IOException {
        nodes.put("/dav", new Node(true, -1, 200));
        nodes.put("/dav/hello.txt", new Node(false, 5, 200));
        nodes.put("/dav/file one.txt", new Node(false, 11, 200));
        nodes.put("/dav/sub", new Node(true, -1, 200));
        nodes.put("/dav/sub/deep.txt", new Node(false, 3, 200));
        nodes.put("/dav/secret", new Node(true, -1, 403));
        nodes.put("/dav/broken", new Node(true, -1, 500));
        server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.createContext("/", this::handle);
        server.start();
    }

    String url() {
        return "http://127.0.0.1:" + server.getAddress().getPort();
    }

    private void handle(HttpExchange exchange) throws IOException {
        requests.incrementAndGet();
        try (exchange) {
            if (exchange.getRequestMethod().equals("PUT") && exchange.getRequestURI().getPath().endsWith("/refused.bin")) {
                // at once, before reading the body, as a server checking rights first; then drained as Apache's and
                // nginx's lingering close does (a close with unread data would reset the connection, answer and all).
                // With a body: an answer without one (length -1) has the JDK's server close the connection at once,
                // the body unread, racing with the drain below (DoorWriteTest saw the door's 502 for the reset)
                byte[] reason = "no writes here\n".getBytes(StandardCharsets.UTF_8);
                exchange.sendResponseHeaders(403, reason.length);
                exchange.getResponseBody().write(reason);
                exchange.getResponseBody().flush();
                try {
                    exchange.getRequestBody().readAllBytes();
                } catch (IOException e) {
                    // the door aborted its upload on the answer: nothing more to drain
                }
                return;
            }
            exchange.getRequestBody().readAllBytes();
            if (exchange.getRequestMethod().equals("PUT") && exchange.getRequestURI().getPath().endsWith("/full.bin")) {
                exchange.sendResponseHeaders(507, -1);
                return;
            }
            if (!exchange.getRequestMethod().equals("PROPFIND")) {
                exchange.sendResponseHeaders(405, -1);
                return;
            }
            String path = GridPath.normalize(exchange.getRequestURI().getPath());
            Node node = nodes.get(path);
            if (node == null || node.status() != 200) {
                exchange.sendResponseHeaders(node == null ? 404 : node.status(), -1);
                return;
            }
            StringBuilder xml = new StringBuilder("<?xml version=\"1.0\" encoding=\"utf-8\"?>\n<D:multistatus xmlns:D=\"DAV:\">\n");
            xml.append(response(path, node));
            if (node.collection() && "1".equals(exchange.getRequestHeaders().getFirst("Depth"))) {
                nodes.forEach((p, n) -> {
                    if (!p.equals(path) && GridPath.parent(p).equals(path) && n.status() == 200) {
                        xml.append(response(p, n));
                    }
                });
            }
            byte[] body = xml.append("</D:multistatus>\n").toString().getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().set("Content-Type", "application/xml; charset=utf-8");
            exchange.sendResponseHeaders(207, body.length);
            exchange.getResponseBody().write(body);
        }
    }

    private String response(String path, Node node) {
        String href = UrlCodec.encodePath(path) + (node.collection() ? "/" : "");
        if (path.endsWith(" one.txt")) {
            href = url() + href; // some servers send absolute URLs
        }
        String props = node.collection()
                ? "<D:resourcetype><D:collection/></D:resourcetype>"
                : "<D:resourcetype/><D:getcontentlength>" + node.size() + "</D:getcontentlength>"
                + "<D:getetag>\"e-" + node.size() + "\"</D:getetag><D:getcontenttype>text/plain</D:getcontenttype>";
        return "<D:response><D:href>" + href + "</D:href><D:propstat><D:prop>" + props
                + "<D:getlastmodified>Mon, 02 Nov 2026 10:00:00 GMT</D:getlastmodified>"
                + "</D:prop><D:status>HTTP/1.1 200 OK</D:status></D:propstat>"
                + "<D:propstat><D:prop><D:quota/></D:prop><D:status>HTTP/1.1 404 Not Found</D:status></D:propstat>"
                + "</D:response>\n";
    }

    @Override
    public void close() {
        server.stop(0);
    }
}
