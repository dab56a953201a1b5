package org.gridcache.door;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;


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
        TestResources.requireInstalled(Files.isExecutable(NGINX) && Files.exists(DAV_EXT), "nginx with the dav-ext module",
                "nginx-light libnginx-mod-http-dav-ext", "the WebDAV write tests");
        int port = TestResources.freePort();
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
        TestResources.awaitListening(port, () -> true);
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
