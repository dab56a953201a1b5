package org.gridcache.cli;

import eu.emi.security.authn.x509.X509Credential;
import eu.emi.security.authn.x509.proxy.ProxyGenerator;
import eu.emi.security.authn.x509.proxy.ProxyRequestOptions;
import eu.emi.security.authn.x509.proxy.ProxyUtils;
import java.io.StringReader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.util.HexFormat;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import org.bouncycastle.openssl.PEMParser;
import org.bouncycastle.pkcs.PKCS10CertificationRequest;
import org.gridcache.common.settings.ClusterSettings;
import org.gridcache.common.security.GridCredentials;
import org.gridcache.common.security.GridTls;
import org.gridcache.common.security.GridTrust;
import org.gridcache.common.security.X509Authenticator;
import org.italiangrid.voms.VOMSAttribute;
import org.italiangrid.voms.ac.impl.DefaultVOMSACParser;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * Delegates the user's proxy to a door over the REST flavour of the delegation endpoint: asks for a certificate
 * request, signs an RFC 3820 proxy for it with the user's proxy (SHA-256), puts the chain. Also destroys a delegation
 * or shows it. The user's key never leaves this process.
 */
@Command(name = "delegate", mixinStandardHelpOptions = true,
        description = "Delegate your proxy to a door (GridSite delegation, REST flavour), or destroy or show a delegation.")
final class DelegateCommand implements Callable<Integer> {
    @Mixin
    CommonOptions common;

    @Parameters(index = "0", paramLabel = "DOOR_URL", description = "The door, e.g. https://door.example.org:2880 (or its delegation endpoint URL).")
    String door;

    @Option(names = "--proxy", paramLabel = "FILE", description = "Your proxy (default: $X509_USER_PROXY, else /tmp/x509up_u<uid>).")
    Path proxy;

    @Option(names = "--capath", paramLabel = "DIR", description = "Trusted CAs (default: $X509_CERT_DIR, else /etc/grid-security/certificates).")
    Path capath;

    @Option(names = "--id", paramLabel = "ID", description = "Delegation id (default: derived from your DN and VOMS attributes,"
            + " as GridSite derives its ids: a proxy with other attributes gets a delegation of its own).")
    String id;

    @Option(names = "--lifetime", paramLabel = "DURATION", defaultValue = "12h",
            description = "Lifetime of the delegated proxy, at most your proxy's (default: ${DEFAULT-VALUE}).")
    String lifetime;

    @Option(names = "--destroy", description = "Destroy the delegation instead.")
    boolean destroy;

    @Option(names = "--info", description = "Show the delegation (JSON) instead.")
    boolean info;

    @Override
    public Integer call() throws Exception {
        X509Credential user = GridCredentials.loadProxy(proxyFile());
        try (GridTrust trust = GridTrust.load(caDir(), null, GridTrust.DEFAULT_REFRESH)) {
            HttpClient http = HttpClient.newBuilder().sslContext(GridTls.client(user, trust))
                    .connectTimeout(Duration.ofSeconds(30)).build();
            String id = this.id != null ? this.id : gridSiteId(user.getCertificateChain());
            String base = endpoint() + "/" + id;
            if (destroy) {
                HttpResponse<String> r = send(http, HttpRequest.newBuilder(URI.create(base)).DELETE());
                return done(r, 204, "destroyed delegation " + id);
            }
            if (info) {
                HttpResponse<String> r = send(http, HttpRequest.newBuilder(URI.create(base)).GET());
                return done(r, 200, r.body());
            }
            HttpResponse<String> req = send(http, HttpRequest.newBuilder(URI.create(base + "/request")).GET());
            if (req.statusCode() != 200) {
                return done(req, 200, null);
            }
            PKCS10CertificationRequest csr;
            try (PEMParser parser = new PEMParser(new StringReader(req.body()))) {
                csr = (PKCS10CertificationRequest) parser.readObject();
            }
            ProxyRequestOptions options = new ProxyRequestOptions(user.getCertificateChain(), csr);
            long seconds = ClusterSettings.parseDuration(lifetime).toSeconds();
            long left = (user.getCertificate().getNotAfter().getTime() - System.currentTimeMillis()) / 1000;
            options.setLifetime(Math.max(1, Math.min(seconds, left)), TimeUnit.SECONDS);
            X509Certificate[] delegated = ProxyGenerator.generate(options, user.getKey());
            String chain = GridCredentials.certificatesToPem(delegated);
            HttpResponse<String> put = send(http, HttpRequest.newBuilder(URI.create(base + "/credential"))
                    .header("Content-Type", "application/x-pem-file").PUT(HttpRequest.BodyPublishers.ofString(chain)));
            return done(put, 201, "delegated " + X509Authenticator.slashDn(ProxyUtils.getOriginalUserDN(user.getCertificateChain()))
                    + " (" + vomsAttributes(user.getCertificateChain()) + ") until "
                    + delegated[0].getNotAfter().toInstant() + " to " + door + " as delegation " + id);
        }
    }

    /**
     * GridSite's delegation id of a proxy: the first 16 hex digits of the SHA-1 of the DN and of each FQAN prefixed
     * {@code fqan:}. The door serves a session only with a delegation of the same VOMS attributes, so each set of
     * attributes needs a delegation of its own; deriving the id from them keeps a {@code /cms} delegation from
     * replacing an {@code /atlas} one, and a renewal with the same proxy replaces its predecessor. The attributes are
     * read, not validated (the door validates them).
     */
    static String gridSiteId(X509Certificate[] chain) throws Exception {
        MessageDigest sha1 = MessageDigest.getInstance("SHA-1");
        sha1.update(X509Authenticator.slashDn(ProxyUtils.getOriginalUserDN(chain)).getBytes(StandardCharsets.UTF_8));
        for (VOMSAttribute attributes : new DefaultVOMSACParser().parse(chain)) {
            for (String fqan : attributes.getFQANs()) {
                sha1.update(("fqan:" + fqan).getBytes(StandardCharsets.UTF_8));
            }
        }
        return HexFormat.of().formatHex(sha1.digest(), 0, 8);
    }

    /** The FQANs the proxy carries, read and not validated (the door validates them), for the user to see. */
    private static String vomsAttributes(X509Certificate[] chain) {
        List<String> fqans = new DefaultVOMSACParser().parse(chain).stream().flatMap(a -> a.getFQANs().stream()).toList();
        return fqans.isEmpty() ? "no VOMS attributes" : "VOMS attributes " + String.join(", ", fqans);
    }

    private String endpoint() {
        String d = door.endsWith("/") ? door.substring(0, door.length() - 1) : door;
        return d.endsWith("/.gridcache/delegation") ? d : d + "/.gridcache/delegation";
    }

    private static HttpResponse<String> send(HttpClient http, HttpRequest.Builder request) throws Exception {
        return http.send(request.timeout(Duration.ofSeconds(60)).build(), HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
    }

    private static int done(HttpResponse<String> r, int expected, String success) {
        if (r.statusCode() != expected) {
            System.err.println("gridcache: the door answered " + r.statusCode() + ": " + r.body().lines().findFirst().orElse(""));
            return 1;
        }
        System.out.println(success);
        return 0;
    }

    private Path proxyFile() {
        if (proxy != null) {
            return proxy;
        }
        String env = System.getenv("X509_USER_PROXY");
        if (env != null) {
            return Path.of(env);
        }
        try {
            Object uid = Files.getAttribute(Path.of(System.getProperty("user.home")), "unix:uid");
            return Path.of("/tmp/x509up_u" + uid);
        } catch (Exception e) {
            throw new IllegalArgumentException("give --proxy FILE");
        }
    }

    private Path caDir() {
        if (capath != null) {
            return capath;
        }
        String env = System.getenv("X509_CERT_DIR");
        return Path.of(env != null ? env : "/etc/grid-security/certificates");
    }
}
