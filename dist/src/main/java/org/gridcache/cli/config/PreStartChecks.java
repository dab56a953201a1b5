package org.gridcache.cli.config;

import eu.emi.security.authn.x509.X509Credential;
import eu.emi.security.authn.x509.helpers.trust.OpensslTruststoreHelper;
import eu.emi.security.authn.x509.impl.CertificateUtils;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.cert.X509Certificate;
import java.util.ArrayList;
import java.util.Date;
import java.util.List;
import org.gridcache.common.security.GridCredentials;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;

/**
 * What can be checked of a role's configuration before it starts, each check one {@link Verdict}: the host
 * certificate and key (readable, in date, matching), the CA directory (OpenSSL-hashed), the ports (free), the
 * directories it writes (writable by this user), and the ZooKeeper ensemble (a majority reachable). Read by option
 * name, so each role gets the checks its options call for.
 */
final class PreStartChecks {
    static final Path GRID_SECURITY = Path.of("/etc/grid-security");
    private static final int CONNECT_TIMEOUT_MS = 3000;

    /** One line: {@code ok    what: detail} or {@code FAIL  what: detail}. */
    record Verdict(boolean ok, String what, String detail) {
        static Verdict ok(String what, String detail) {
            return new Verdict(true, what, detail);
        }

        static Verdict fail(String what, String detail) {
            return new Verdict(false, what, detail);
        }

        @Override
        public String toString() {
            return (ok ? "ok    " : "FAIL  ") + what + ": " + detail;
        }
    }

    private final String role;
    private final CommandSpec command;

    PreStartChecks(String role, CommandSpec command) {
        this.role = role;
        this.command = command;
    }

    List<Verdict> run() {
        List<Verdict> verdicts = new ArrayList<>();
        if (usesTls()) {
            verdicts.add(credential(path("host-cert", GRID_SECURITY.resolve("hostcert.pem")),
                    path("host-key", GRID_SECURITY.resolve("hostkey.pem"))));
            verdicts.add(caDirectory(path("ca-dir", GRID_SECURITY.resolve("certificates"))));
        }
        for (OptionSpec option : command.options()) {
            String key = ConfigDefaults.key(option);
            if ((key.equals("port") || key.endsWith("-port")) && option.getValue() instanceof Integer port && port > 0
                    && !(role.equals("zk") && value("ensemble") != null)) {
                String bind = key.equals("jmx-port") ? value("jmx-bind") : value("bind");
                verdicts.add(port(key, bind, port));
            }
        }
        for (String key : List.of("store", "home", "log-dir", "delegation-dir")) {
            if (value(key) != null) {
                verdicts.add(writable(key, Path.of(value(key))));
            }
        }
        if (value("zk") != null && !role.equals("standalone")) {
            verdicts.add(zooKeeper(value("zk")));
        }
        return verdicts;
    }

    /** Doors and pools speak TLS unless --plain-http; zk and standalone when given a host credential or CAs. */
    private boolean usesTls() {
        if (role.equals("door") || role.equals("pool")) {
            return !Boolean.TRUE.equals(option("plain-http")) || Boolean.TRUE.equals(option("zk-tls"));
        }
        return value("host-cert") != null || value("host-key") != null || value("ca-dir") != null;
    }

    static Verdict credential(Path certFile, Path keyFile) {
        String what = "host certificate " + certFile;
        X509Credential credential; // canl refuses a key that is not the certificate's
        try {
            credential = GridCredentials.load(certFile, keyFile);
        } catch (IOException | RuntimeException e) {
            return Verdict.fail(what, e.getMessage());
        }
        X509Certificate cert = credential.getCertificate();
        try {
            cert.checkValidity();
        } catch (GeneralSecurityException e) {
            return Verdict.fail(what, "not valid now (" + cert.getNotBefore() + " to " + cert.getNotAfter() + ")");
        }
        return Verdict.ok(what, cert.getSubjectX500Principal().getName() + ", valid until "
                + cert.getNotAfter().toInstant() + ", matches the key " + keyFile);
    }

    /** Every {@code <hash>.N} file holds a CA certificate whose subject has that OpenSSL hash; at least one does. */
    static Verdict caDirectory(Path dir) {
        String what = "CA directory " + dir;
        if (!Files.isDirectory(dir)) {
            return Verdict.fail(what, "not a directory");
        }
        int hashed = 0;
        try (DirectoryStream<Path> files = Files.newDirectoryStream(dir, "*.[0-9]")) {
            for (Path file : files) {
                String name = file.getFileName().toString();
                if (!name.matches("[0-9a-f]{8}\\.[0-9]")) {
                    continue;
                }
                X509Certificate ca;
                try (InputStream in = Files.newInputStream(file)) {
                    ca = CertificateUtils.loadCertificate(in, CertificateUtils.Encoding.PEM);
                }
                // OpenSSL 1.0's subject hash, or the old one that grid CA packages link too
                String hash = OpensslTruststoreHelper.getOpenSSLCAHash(ca.getSubjectX500Principal(), true);
                String old = OpensslTruststoreHelper.getOpenSSLCAHash(ca.getSubjectX500Principal(), false);
                if (!name.startsWith(hash + ".") && !name.startsWith(old + ".")) {
                    return Verdict.fail(what, name + " holds a certificate whose subject hash is " + hash + " (run openssl rehash)");
                }
                if (ca.getNotAfter().before(new Date())) {
                    return Verdict.fail(what, name + " expired " + ca.getNotAfter().toInstant());
                }
                hashed++;
            }
        } catch (IOException | RuntimeException e) {
            return Verdict.fail(what, e.getMessage());
        }
        return hashed > 0 ? Verdict.ok(what, hashed + " hashed CA certificate" + (hashed == 1 ? "" : "s"))
                : Verdict.fail(what, "no <hash>.0 CA certificate (run openssl rehash)");
    }

    static Verdict port(String key, String bind, int port) {
        String address = bind != null ? bind : "0.0.0.0";
        String what = key + " " + address + ":" + port;
        try (ServerSocket socket = new ServerSocket()) {
            socket.setReuseAddress(true);
            socket.bind(new InetSocketAddress(address, port));
            return Verdict.ok(what, "free");
        } catch (IOException e) {
            return Verdict.fail(what, "cannot listen (" + e.getMessage() + ")");
        }
    }

    /** The directory, or the nearest one above it that exists (the process creates the rest), is writable. */
    static Verdict writable(String key, Path dir) {
        String what = key + " " + dir;
        Path existing = dir.toAbsolutePath();
        while (existing != null && !Files.exists(existing)) {
            existing = existing.getParent();
        }
        if (existing == null || !Files.isDirectory(existing)) {
            return Verdict.fail(what, (existing != null ? existing : dir) + " is not a directory");
        }
        if (!Files.isWritable(existing)) {
            return Verdict.fail(what, existing + " is not writable");
        }
        return Verdict.ok(what, existing.equals(dir.toAbsolutePath()) ? "writable" : "will be created in " + existing);
    }

    /** A majority of the ensemble's members accept a TCP connection (what a session needs). */
    static Verdict zooKeeper(String connect) {
        String hosts = connect.contains("/") ? connect.substring(0, connect.indexOf('/')) : connect;
        String[] members = hosts.split(",");
        List<String> unreachable = new ArrayList<>();
        for (String member : members) {
            int colon = member.lastIndexOf(':');
            String host = colon > 0 ? member.substring(0, colon) : member;
            int port = colon > 0 ? Integer.parseInt(member.substring(colon + 1)) : 2181;
            try (Socket socket = new Socket()) {
                socket.connect(new InetSocketAddress(host.strip(), port), CONNECT_TIMEOUT_MS);
            } catch (IOException e) {
                unreachable.add(member + " (" + e.getMessage() + ")");
            }
        }
        int reachable = members.length - unreachable.size();
        String detail = reachable + " of " + members.length + " reachable" + (unreachable.isEmpty() ? "" : "; not " + String.join(", ", unreachable));
        return reachable * 2 > members.length ? Verdict.ok("ZooKeeper " + connect, detail) : Verdict.fail("ZooKeeper " + connect, detail);
    }

    private Path path(String key, Path fallback) {
        String v = value(key);
        return v != null ? Path.of(v) : fallback;
    }

    private Object option(String key) {
        OptionSpec option = command.findOption(key);
        return option != null ? option.getValue() : null;
    }

    private String value(String key) {
        Object v = option(key);
        return v != null ? v.toString() : null;
    }
}
