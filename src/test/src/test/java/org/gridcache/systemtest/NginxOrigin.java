package org.gridcache.systemtest;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

/**
 * A real WebDAV origin: Debian's nginx with the dav-ext module (PROPFIND), serving a directory on a free loopback
 * port, with an access log that the tests count to prove what reached the origin.
 */
final class NginxOrigin implements AutoCloseable {
    /** A third-party copy's remote location that wants {@code Authorization: Bearer s3cret}, as a site's token would be checked. */
    static final String TOKEN_LOCATION = "location /token/ { if ($http_authorization != \"Bearer s3cret\") { return 403; } }\n";
    private final Path dir;
    private final Path data;
    private final int port;
    private final String limitRate;
    private final boolean webdav;
    private final String serverExtra;
    private final String httpExtra;

    NginxOrigin(Path dir, Path data, String limitRate, boolean webdav) throws IOException {
        this(dir, data, limitRate, webdav, "", "");
    }

    /**
     * {@code serverExtra}: more directives of the one server (before its {@code location /}); {@code httpExtra}: more of
     * the http block, before that server (log formats, other servers). In both, {@code {port}} is replaced by the server's port and {@code {dir}} by
     * nginx's working directory.
     */
    NginxOrigin(Path dir, Path data, String limitRate, boolean webdav, String serverExtra, String httpExtra) throws IOException {
        this.dir = dir;
        this.data = data;
        this.port = Tools.freePort();
        this.limitRate = limitRate;
        this.webdav = webdav;
        this.serverExtra = serverExtra.replace("{port}", String.valueOf(port)).replace("{dir}", dir.toString());
        this.httpExtra = httpExtra.replace("{port}", String.valueOf(port)).replace("{dir}", dir.toString());
        Files.createDirectories(dir.resolve("tmp"));
        Files.writeString(dir.resolve("nginx.conf"), config());
    }

    static NginxOrigin start(Path dir, Path data) throws IOException {
        return start(dir, data, "0");
    }

    /** {@code limitRate}: nginx's limit_rate per connection, e.g. "2m"; "0" = unlimited. */
    static NginxOrigin start(Path dir, Path data, String limitRate) throws IOException {
        Tools.require("nginx", "curl");
        NginxOrigin origin = new NginxOrigin(dir, data, limitRate, true);
        origin.start();
        return origin;
    }

    /** A WebDAV origin that takes writes: nginx's dav module (PUT, DELETE, MKCOL, COPY, MOVE) besides dav-ext's PROPFIND. */
    static NginxOrigin startWritable(Path dir, Path data) throws IOException {
        return startWritable(dir, data, "");
    }

    /** As {@link #startWritable(Path, Path)}, with more directives of the server ({@code location}s, say). */
    static NginxOrigin startWritable(Path dir, Path data, String serverExtra) throws IOException {
        Tools.require("nginx", "curl");
        NginxOrigin origin = new NginxOrigin(dir, data, "0", true, """
                dav_methods PUT DELETE MKCOL COPY MOVE;
                dav_access user:rw group:r all:r;
                client_max_body_size 0;
                """ + serverExtra, "");
        origin.start();
        return origin;
    }

    /** A plain HTTP file server: no PROPFIND (many data servers are just that). */
    static NginxOrigin startPlain(Path dir, Path data) throws IOException {
        Tools.require("nginx", "curl");
        NginxOrigin origin = new NginxOrigin(dir, data, "0", false);
        origin.start();
        return origin;
    }

    /** A plain HTTP file server with more configuration (redirects, more listen addresses, a TLS server): see the constructor. */
    static NginxOrigin startPlain(Path dir, Path data, String serverExtra, String httpExtra) throws IOException {
        Tools.require("nginx", "curl");
        NginxOrigin origin = new NginxOrigin(dir, data, "0", false, serverExtra, httpExtra);
        origin.start();
        return origin;
    }

    private String config() {
        return """
                %5$s
                user root;
                worker_processes 1;
                daemon on;
                pid %1$s/nginx.pid;
                error_log %1$s/error.log warn;
                events { worker_connections 1024; }
                http {
                  default_type application/octet-stream;
                  sendfile on;
                  log_format origin '$request_method $uri $status $body_bytes_sent';
                  access_log %1$s/access.log origin;
                  client_body_temp_path %1$s/tmp/body; proxy_temp_path %1$s/tmp/proxy;
                  fastcgi_temp_path %1$s/tmp/fcgi; uwsgi_temp_path %1$s/tmp/uwsgi; scgi_temp_path %1$s/tmp/scgi;
                  %8$s
                  server {
                    listen 127.0.0.1:%2$d;
                    root %3$s;
                    limit_rate %4$s;
                    %7$s
                    location / {
                      %6$s
                      autoindex on;
                    }
                  }
                }
                """.formatted(dir, port, data, limitRate,
                webdav ? "load_module /usr/lib/nginx/modules/ngx_http_dav_ext_module.so;" : "",
                webdav ? "dav_ext_methods PROPFIND OPTIONS;" : "", serverExtra, httpExtra);
    }

    void start() {
        Tools.run(Duration.ofSeconds(20), "nginx", "-c", dir.resolve("nginx.conf").toString(), "-e",
                dir.resolve("error.log").toString()).assertOk();
        Tools.await("nginx origin on port " + port, Duration.ofSeconds(20),
                () -> Tools.curl("-o", "/dev/null", "http://127.0.0.1:" + port + "/").exit() == 0);
    }

    String url() {
        return "http://127.0.0.1:" + port + "/";
    }

    int port() {
        return port;
    }

    Path data() {
        return data;
    }

    /** Number of requests with this method and URI (decoded path) in the access log. */
    long count(String method, String uri) throws IOException {
        Path log = dir.resolve("access.log");
        if (!Files.exists(log)) {
            return 0;
        }
        List<String> lines = Files.readAllLines(log);
        return lines.stream().filter(l -> l.startsWith(method + " " + uri + " ")).count();
    }

    /** Body bytes the origin sent for requests with this method and URI (decoded path), from the access log. */
    long bytesSent(String method, String uri) throws IOException {
        Path log = dir.resolve("access.log");
        if (!Files.exists(log)) {
            return 0;
        }
        return Files.readAllLines(log).stream().filter(l -> l.startsWith(method + " " + uri + " "))
                .mapToLong(l -> Long.parseLong(l.substring(l.lastIndexOf(' ') + 1))).sum();
    }

    /** kill -9 of master and workers: the origin dies mid-transfer, as a crashed server would. */
    void kill() throws IOException {
        killAll();
        Tools.await("nginx to die", Duration.ofSeconds(10),
                () -> Tools.curl("-o", "/dev/null", "--max-time", "2", "http://127.0.0.1:" + port + "/").exit() != 0);
    }

    /** Stops the master first so that it cannot respawn workers, then kills the workers and the master. */
    private void killAll() throws IOException {
        Path pidFile = dir.resolve("nginx.pid");
        if (!Files.exists(pidFile)) {
            return;
        }
        String pid = Files.readString(pidFile).trim();
        Tools.run(Duration.ofSeconds(10), "kill", "-STOP", pid);
        Tools.run(Duration.ofSeconds(10), "pkill", "-9", "-P", pid);
        Tools.run(Duration.ofSeconds(10), "kill", "-9", pid);
        Files.deleteIfExists(pidFile);
    }

    @Override
    public void close() throws IOException {
        killAll();
    }
}
