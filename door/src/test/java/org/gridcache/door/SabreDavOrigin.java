package org.gridcache.door;


import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assertions;

/**
 * A real WebDAV origin that reports RFC 4331 quota: SabreDAV (the server inside Nextcloud and ownCloud; Debian's
 * php-sabre-dav) serving a directory through PHP's built-in web server on a free loopback port. Its collections
 * answer {@code quota-available-bytes} (the file system's free space) and {@code quota-used-bytes} (its total less
 * that). Without php-cli and php-sabre-dav the test is skipped with a loud message; CI installs them ({@code .ci/run}).
 */
public final class SabreDavOrigin implements AutoCloseable {
    private static final Path PHP = Path.of("/usr/bin/php");
    private static final Path SABRE = Path.of("/usr/share/php/Sabre/autoload.php");
    private final Process process;
    private final int port;

    private SabreDavOrigin(Process process, int port) {
        this.process = process;
        this.port = port;
    }

    public static SabreDavOrigin start(Path dir, Path data) throws IOException {
        TestResources.requireInstalled(Files.isExecutable(PHP) && Files.exists(SABRE), "php-cli with php-sabre-dav",
                "php-cli php-sabre-dav", "the WebDAV quota tests");
        int port = TestResources.freePort();
        Files.createDirectories(dir);
        Files.createDirectories(data);
        Path router = Files.writeString(dir.resolve("server.php"), """
                <?php
                require '%s';
                $server = new \\Sabre\\DAV\\Server(new \\Sabre\\DAV\\FS\\Directory('%s'));
                $server->setBaseUri('/');
                $server->exec();
                """.formatted(SABRE, data));
        Process process = new ProcessBuilder(PHP.toString(), "-S", "127.0.0.1:" + port, router.toString())
                .directory(dir.toFile()).redirectErrorStream(true).redirectOutput(dir.resolve("php.log").toFile()).start();
        SabreDavOrigin origin = new SabreDavOrigin(process, port);
        TestResources.awaitListening(port, process::isAlive);
        if (!process.isAlive()) {
            Assertions.fail("php exited: " + Files.readString(dir.resolve("php.log")));
        }
        return origin;
    }

    /** The origin's URL, without a trailing slash. */
    public String url() {
        return "http://127.0.0.1:" + port;
    }

    @Override
    public void close() throws InterruptedException {
        process.destroy();
        process.waitFor(10, TimeUnit.SECONDS);
    }
}
