package org.gridcache.door;

import java.io.IOException;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assertions;
import org.junit.jupiter.api.Assumptions;

import static org.awaitility.Awaitility.await;

/**
 * A real writable WebDAV origin for the door's tests: Debian's nginx with its dav module (PUT, DELETE, MKCOL, COPY,
 * MOVE) and dav-ext (PROPFIND), serving a directory on a free loopback port. Without nginx (a developer's machine)
 * the test is skipped with a loud message; CI installs it ({@code .ci/run}).
 */
public final class WritableNginx implements AutoCloseable {
    private static final Path NGINX = Path.of("/usr/sbin/nginx");
    private static final Path DAV_EXT = Path.of("/usr/lib/nginx/modules/ngx_http_dav_ext_module.so");
    private final Path dir;
    private final Path data;
    private final int port;

    private WritableNginx(Path dir, Path data, int port) {
        this.dir = dir;
        this.data = data;
        this.port = port;
    }

    public static WritableNginx start(Path dir, Path data) throws IOException, InterruptedException {
        if (!Files.isExecutable(NGINX) || !Files.exists(DAV_EXT)) {
            System.err.println("!!! SKIPPED: nginx with the dav-ext module is not installed (apt-get install nginx-light"
                    + " libnginx-mod-http-dav-ext); the WebDAV write tests did not run !!!");
            Assertions.assertNotEquals("true", System.getenv("CI"), "nginx with dav-ext is not installed: .ci/run installs it");
            Assumptions.abort("nginx with dav-ext is not installed");
        }
        int port;
        try (ServerSocket s = new ServerSocket(0)) {
            port = s.getLocalPort();
        }
        Files.createDirectories(dir.resolve("tmp"));
        Files.createDirectories(data);
        Files.writeString(dir.resolve("nginx.conf"), """
                load_module %4$s;
                user root;
                worker_processes 1;
                daemon on;
                pid %1$s/nginx.pid;
                error_log %1$s/error.log warn;
                events { worker_connections 256; }
                http {
                  client_body_temp_path %1$s/tmp/body; proxy_temp_path %1$s/tmp/proxy;
                  fastcgi_temp_path %1$s/tmp/fcgi; uwsgi_temp_path %1$s/tmp/uwsgi; scgi_temp_path %1$s/tmp/scgi;
                  access_log %1$s/access.log;
                  client_max_body_size 0;
                  server {
                    listen 127.0.0.1:%2$d;
                    root %3$s;
                    location / {
                      dav_methods PUT DELETE MKCOL COPY MOVE;
                      dav_ext_methods PROPFIND OPTIONS;
                      dav_access user:rw group:r all:r;
                      autoindex on;
                    }
                  }
                }
                """.formatted(dir, port, data, DAV_EXT));
        Process p = new ProcessBuilder(NGINX.toString(), "-c", dir.resolve("nginx.conf").toString(), "-e",
                dir.resolve("error.log").toString()).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes());
        if (!p.waitFor(20, TimeUnit.SECONDS) || p.exitValue() != 0) {
            throw new IOException("nginx did not start: " + out);
        }
        WritableNginx nginx = new WritableNginx(dir, data, port);
        await().atMost(Duration.ofSeconds(20)).until(() -> {
            try (Socket s = new Socket("127.0.0.1", port)) {
                return true;
            } catch (IOException e) {
                return false;
            }
        });
        return nginx;
    }

    /** The origin's URL, without a trailing slash. */
    public String url() {
        return "http://127.0.0.1:" + port;
    }

    public Path data() {
        return data;
    }

    @Override
    public void close() throws IOException, InterruptedException {
        Path pid = dir.resolve("nginx.pid");
        if (Files.exists(pid)) {
            new ProcessBuilder("kill", Files.readString(pid).trim()).start().waitFor(10, TimeUnit.SECONDS);
        }
    }
}
