package org.gridcache.systemtest;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;

/**
 * A WebDAV origin that reports RFC 4331 quota (nginx and Debian 12's Apache do not): SabreDAV, the server inside
 * Nextcloud and ownCloud (Debian's php-sabre-dav), under PHP's built-in web server on a free loopback port. A
 * collection's {@code quota-available-bytes} is its file system's free space, {@code quota-used-bytes} the rest.
 */
final class SabreDavOrigin implements AutoCloseable {
    private static final String AUTOLOAD = "/usr/share/php/Sabre/autoload.php";
    private final Process php;
    private final int port;

    private SabreDavOrigin(Process php, int port) {
        this.php = php;
        this.port = port;
    }

    static SabreDavOrigin start(Path dir, Path data) throws IOException {
        Tools.require("php");
        Tools.requireFile(Path.of(AUTOLOAD), "SabreDAV (apt-get install php-sabre-dav)");
        Files.createDirectories(data);
        Path router = Files.writeString(Files.createDirectories(dir).resolve("sabre.php"), "<?php\nrequire '" + AUTOLOAD
                + "';\n$server = new \\Sabre\\DAV\\Server(new \\Sabre\\DAV\\FS\\Directory('" + data + "'));\n"
                + "$server->setBaseUri('/');\n$server->exec();\n");
        int port = Tools.freePort();
        Process php = new ProcessBuilder("php", "-S", "127.0.0.1:" + port, router.toString()).redirectErrorStream(true)
                .redirectOutput(dir.resolve("php.log").toFile()).start();
        SabreDavOrigin origin = new SabreDavOrigin(php, port);
        Tools.await("SabreDAV to answer", Duration.ofSeconds(30), () -> !php.isAlive()
                || Tools.curl("-o", "/dev/null", "-X", "PROPFIND", "-H", "Depth: 0", origin.url()).exit() == 0);
        if (!php.isAlive()) {
            throw new IOException("php exited: " + Files.readString(dir.resolve("php.log")));
        }
        return origin;
    }

    String url() {
        return "http://127.0.0.1:" + port + "/";
    }

    @Override
    public void close() throws InterruptedException {
        php.destroy();
        php.waitFor();
    }
}
