package org.gridcache.systemtest;

import com.github.nitram509.jmacaroons.MacaroonsBuilder;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Base64;
import java.util.concurrent.ThreadLocalRandom;

/**
 * A real XRootD 5.5 (Debian's xrootd-server and xrootd-server-plugins): XrdHttp on plain HTTP with XrdHttpTPC and
 * XrdMacaroons, in a network namespace of its own (xrootd binds every address), reached over a veth pair at
 * {@code 10.231.N.2}. Its authorization database lets the user {@code alice} read {@code /private} and nobody else;
 * a macaroon with {@code name:alice} (made here with the server's secret) is alice. XRootD copies a macaroon's name
 * onto the connection's identity, where it stays for the requests that follow on that connection. It answers
 * {@code Want-Digest: adler32} (without a checksum configured it refuses such a GET with 405).
 */
final class XrootdRemote implements AutoCloseable {
    static final int PORT = 8080;
    private static final String SITE = "gridcache-test";
    private final String ns;
    private final String address;
    private final byte[] secret;
    private final Process xrootd;
    private final Path dir;

    private XrootdRemote(String ns, String address, byte[] secret, Process xrootd, Path dir) {
        this.ns = ns;
        this.address = address;
        this.secret = secret;
        this.xrootd = xrootd;
        this.dir = dir;
    }

    /** Starts it over {@code dir} (world-readable: xrootd runs as nobody), serving {@code dir/data}. */
    static XrootdRemote start(Path dir) throws IOException {
        Tools.require("xrootd", "ip");
        int n = ThreadLocalRandom.current().nextInt(1, 250);
        String ns = "gcx" + ProcessHandle.current().pid() % 100000 + "n" + n;
        String host = "10.231." + n + ".1";
        String address = "10.231." + n + ".2";
        byte[] secret = new byte[48];
        new SecureRandom().nextBytes(secret);
        Files.writeString(dir.resolve("secret"), Base64.getEncoder().encodeToString(secret) + "\n");
        Files.writeString(dir.resolve("authdb"), "u alice /private lr\nu * /public lr\n");
        Path logs = Files.createDirectories(dir.resolve("logs"));
        Tools.run(Duration.ofMinutes(1), "chown", "nobody", logs.toString()).assertOk();
        Files.writeString(dir.resolve("xrootd.cfg"), """
                all.export /
                all.sitename %s
                oss.localroot %s
                xrd.protocol XrdHttp:%d libXrdHttp.so
                http.exthandler xrdtpc libXrdHttpTPC.so
                http.exthandler xrdmacaroons libXrdMacaroons.so
                http.header2cgi Authorization authz
                macaroons.secretkey %s
                ofs.authorize 1
                ofs.authlib libXrdMacaroons.so
                acc.authdb %s
                acc.audit deny grant
                xrootd.chksum adler32
                """.formatted(SITE, dir.resolve("data"), PORT, dir.resolve("secret"), dir.resolve("authdb")));
        Tools.run(Duration.ofMinutes(1), "chmod", "-R", "a+rX", dir.toString()).assertOk();
        ip("netns", "add", ns);
        ip("link", "add", ns + "a", "type", "veth", "peer", "name", ns + "b");
        ip("link", "set", ns + "b", "netns", ns);
        ip("addr", "add", host + "/30", "dev", ns + "a");
        ip("link", "set", ns + "a", "up");
        ip("netns", "exec", ns, "ip", "addr", "add", address + "/30", "dev", ns + "b");
        ip("netns", "exec", ns, "ip", "link", "set", ns + "b", "up");
        ip("netns", "exec", ns, "ip", "link", "set", "lo", "up");
        Process xrootd = new ProcessBuilder("ip", "netns", "exec", ns, "xrootd", "-c", dir.resolve("xrootd.cfg").toString(),
                "-l", logs.resolve("xrootd.log").toString(), "-R", "nobody")
                .redirectErrorStream(true).redirectOutput(dir.resolve("xrootd.out").toFile()).start();
        XrootdRemote remote = new XrootdRemote(ns, address, secret, xrootd, dir);
        Tools.await("xrootd to answer at " + address, Duration.ofSeconds(30), () -> Tools.curl("-s", "-o", "/dev/null",
                "-w", "%{http_code}", remote.url("/public/")).out().matches("[2-4]\\d\\d"));
        return remote;
    }

    private static void ip(String... args) {
        String[] cmd = new String[args.length + 1];
        cmd[0] = "ip";
        System.arraycopy(args, 0, cmd, 1, args.length);
        Tools.run(Duration.ofSeconds(30), cmd).assertOk();
    }

    /** The address the pool reaches it at (in a private range: a site lists it in tpc.allowed-hosts). */
    String address() {
        return address;
    }

    String url(String path) {
        return "http://" + address + ":" + PORT + path;
    }

    /** A macaroon of this server for user {@code name}, {@code activities} on {@code path}, valid an hour. */
    String macaroon(String name, String path, String activities) {
        String before = Instant.now().plus(1, ChronoUnit.HOURS).truncatedTo(ChronoUnit.SECONDS).toString();
        return new MacaroonsBuilder(SITE, secret, "gridcache-test-" + name).add_first_party_caveat("name:" + name)
                .add_first_party_caveat("activity:" + activities).add_first_party_caveat("path:" + path)
                .add_first_party_caveat("before:" + before).getMacaroon().serialize();
    }

    /** Its log (authorization decisions: acc.audit). */
    String log() throws IOException {
        Path log = dir.resolve("logs/xrootd.log");
        return Files.exists(log) ? Files.readString(log) : "";
    }

    @Override
    public void close() throws Exception {
        xrootd.destroy();
        xrootd.waitFor();
        Tools.run(Duration.ofSeconds(30), "ip", "link", "del", ns + "a");
        Tools.run(Duration.ofSeconds(30), "ip", "netns", "del", ns);
    }
}
