package org.gridcache.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.OutputStream;
import java.io.StringWriter;
import java.lang.management.ManagementFactory;
import java.math.BigInteger;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.KeyStore;
import java.security.cert.X509Certificate;
import java.util.Date;
import java.util.HashMap;
import java.util.Map;
import javax.management.MBeanServerConnection;
import javax.management.ObjectName;
import javax.management.remote.JMXConnector;
import javax.management.remote.JMXConnectorFactory;
import javax.management.remote.JMXServiceURL;
import javax.rmi.ssl.SslRMIClientSocketFactory;
import javax.security.auth.x500.X500Principal;
import org.bouncycastle.asn1.x509.Extension;
import org.bouncycastle.asn1.x509.GeneralName;
import org.bouncycastle.asn1.x509.GeneralNames;
import org.bouncycastle.cert.jcajce.JcaX509CertificateConverter;
import org.bouncycastle.cert.jcajce.JcaX509v3CertificateBuilder;
import org.bouncycastle.openssl.jcajce.JcaPEMWriter;
import org.bouncycastle.operator.jcajce.JcaContentSignerBuilder;
import org.gridcache.common.TestPorts;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The remote JMX connector's rules, through a real JMX client: off loopback only with a password file and an access
 * file; read-only users read and change nothing; nobody dumps the heap or runs diagnostic commands remotely; over TLS a
 * plain client gets nowhere. One TLS connector (password and access files) serves the role tests.
 */
class JmxServerTest {
    private static final ObjectName HOTSPOT = name("com.sun.management:type=HotSpotDiagnostic");
    private static final ObjectName DIAGNOSTIC = name("com.sun.management:type=DiagnosticCommand");
    private static final ObjectName RUNTIME = name("java.lang:type=Runtime");
    private static final ObjectName MEMORY = name("java.lang:type=Memory");
    @TempDir
    static Path tmp;
    static Path passwords;
    static Path access;
    static JmxServer tls;
    static int tlsPort;

    @BeforeAll
    static void startTlsConnector() throws Exception {
        KeyPair keys = KeyPairGenerator.getInstance("RSA").generateKeyPair();
        X500Principal name = new X500Principal("CN=localhost");
        X509Certificate cert = new JcaX509CertificateConverter().getCertificate(new JcaX509v3CertificateBuilder(name,
                BigInteger.ONE, new Date(System.currentTimeMillis() - 60_000), new Date(System.currentTimeMillis() + 3_600_000),
                name, keys.getPublic())
                // clients check that the certificate names the host they connect to, as with HTTPS
                .addExtension(Extension.subjectAlternativeName, false, new GeneralNames(new GeneralName[] {
                        new GeneralName(GeneralName.iPAddress, "127.0.0.1"), new GeneralName(GeneralName.dNSName, "localhost")}))
                .build(new JcaContentSignerBuilder("SHA256withRSA").build(keys.getPrivate())));
        Path certFile = tmp.resolve("jmx-cert.pem");
        Path keyFile = tmp.resolve("jmx-key.pem");
        Files.writeString(certFile, pem(cert));
        Files.writeString(keyFile, pem(keys.getPrivate()));
        // the client side: SslRMIClientSocketFactory trusts what the JVM's default trust store holds
        KeyStore trust = KeyStore.getInstance("PKCS12");
        trust.load(null, null);
        trust.setCertificateEntry("jmx", cert);
        Path trustFile = tmp.resolve("trust.p12");
        try (OutputStream out = Files.newOutputStream(trustFile)) {
            trust.store(out, "changeit".toCharArray());
        }
        System.setProperty("javax.net.ssl.trustStore", trustFile.toString());
        System.setProperty("javax.net.ssl.trustStorePassword", "changeit");
        System.setProperty("javax.net.ssl.trustStoreType", "PKCS12");

        passwords = ownerOnly(tmp.resolve("jmx.password"), "monitor m0n\nadmin s3cret\n");
        access = ownerOnly(tmp.resolve("jmx.access"), "monitor readonly\nadmin readwrite\n");
        tlsPort = TestPorts.freePort();
        tls = JmxServer.start(new JmxServer.Settings("127.0.0.1", tlsPort, passwords, access, certFile, keyFile));
    }

    @AfterAll
    static void stop() {
        if (tls != null) {
            tls.close();
        }
    }

    @Test
    void offLoopbackItStartsOnlyWithAPasswordFileAndAnAccessFile() throws Exception {
        IllegalArgumentException open = assertThrows(IllegalArgumentException.class,
                () -> JmxServer.start(new JmxServer.Settings("0.0.0.0", TestPorts.freePort(), null, null, null, null)));
        assertTrue(open.getMessage().contains("needs --jmx-password-file and --jmx-access-file"), open.getMessage());
        IllegalArgumentException noRoles = assertThrows(IllegalArgumentException.class,
                () -> JmxServer.start(new JmxServer.Settings("0.0.0.0", TestPorts.freePort(), passwords, null, null, null)));
        assertTrue(noRoles.getMessage().contains("--jmx-access-file"), noRoles.getMessage());
    }

    @Test
    void aPasswordFileOthersMayReadAndAnAccessFileOthersMayWriteAreRefused() throws Exception {
        Path readable = tmp.resolve("group-readable.password");
        Files.writeString(readable, "admin s3cret\n");
        Files.setPosixFilePermissions(readable, PosixFilePermissions.fromString("rw-r-----"));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> JmxServer.start(new JmxServer.Settings("127.0.0.1", TestPorts.freePort(), readable, null, null, null)));
        assertTrue(e.getMessage().contains("must be readable by its owner only"), e.getMessage());
        Path writable = tmp.resolve("group-writable.access");
        Files.writeString(writable, "admin readwrite\n");
        Files.setPosixFilePermissions(writable, PosixFilePermissions.fromString("rw-rw-r--"));
        e = assertThrows(IllegalArgumentException.class,
                () -> JmxServer.start(new JmxServer.Settings("127.0.0.1", TestPorts.freePort(), passwords, writable, null, null)));
        assertTrue(e.getMessage().contains("must be writable by its owner only"), e.getMessage());
    }

    @Test
    void aReadOnlyUserReadsButInvokesNothingAndCreatesNoMBean() throws Exception {
        try (JMXConnector c = connectTls("monitor", "m0n")) {
            MBeanServerConnection jmx = c.getMBeanServerConnection();
            assertTrue(((String) jmx.getAttribute(RUNTIME, "VmName")).length() > 0);
            assertThrows(SecurityException.class, () -> dumpHeap(jmx));
            assertThrows(SecurityException.class, () -> jmx.invoke(MEMORY, "gc", null, null));
            assertThrows(SecurityException.class, () -> jmx.createMBean("javax.management.timer.Timer", name("test:type=Timer")));
        }
    }

    @Test
    void aReadWriteUserInvokesOperationsButNeverDumpsTheHeapOrRunsDiagnosticCommands() throws Exception {
        try (JMXConnector c = connectTls("admin", "s3cret")) {
            MBeanServerConnection jmx = c.getMBeanServerConnection();
            jmx.invoke(MEMORY, "gc", null, null);
            SecurityException dump = assertThrows(SecurityException.class, () -> dumpHeap(jmx));
            assertTrue(dump.getMessage().contains("dumpHeap is not available over remote JMX"), dump.getMessage());
            assertThrows(SecurityException.class, () -> jmx.invoke(DIAGNOSTIC, "gcHeapDump",
                    new Object[] {new String[] {tmp.resolve("d.hprof").toString()}}, new String[] {String[].class.getName()}));
            assertThrows(SecurityException.class, () -> jmx.invoke(DIAGNOSTIC, "jvmtiAgentLoad",
                    new Object[] {new String[] {"/tmp/agent.so"}}, new String[] {String[].class.getName()}));
            ObjectName jfr = name("jdk.management.jfr:type=FlightRecorder");
            assertThrows(SecurityException.class, () -> jmx.invoke(jfr, "takeSnapshot", null, null), "no flight recording");
            assertThrows(SecurityException.class, () -> jmx.invoke(jfr, "copyTo",
                    new Object[] {1L, tmp.resolve("over.jfr").toString()}, new String[] {long.class.getName(), String.class.getName()}));
            // readwrite without a create clause: the JDK's access controller refuses
            assertThrows(SecurityException.class, () -> jmx.createMBean("javax.management.timer.Timer", name("test:type=Timer")));
        }
        assertTrue(Files.notExists(tmp.resolve("heap.hprof")) && Files.notExists(tmp.resolve("d.hprof"))
                && Files.notExists(tmp.resolve("over.jfr")), "no dump or recording written");
    }

    @Test
    void overTlsAWrongPasswordAndAPlainClientGetNowhere() throws Exception {
        assertThrows(SecurityException.class, () -> connectTls("admin", "wrong").close());
        Map<String, Object> env = new HashMap<>();
        env.put(JMXConnector.CREDENTIALS, new String[] {"admin", "s3cret"});
        assertThrows(IOException.class, () -> JMXConnectorFactory.connect(url(tlsPort), env).close(), "no plain registry");
    }

    @Test
    void onLoopbackWithoutAccessFileNobodyCreatesMBeansOrDumpsTheHeap() throws Exception {
        int port = TestPorts.freePort();
        try (JmxServer open = JmxServer.start(new JmxServer.Settings("127.0.0.1", port, null, null, null, null));
             JMXConnector c = JMXConnectorFactory.connect(url(port))) {
            MBeanServerConnection jmx = c.getMBeanServerConnection();
            assertTrue(((String) jmx.getAttribute(RUNTIME, "VmName")).length() > 0);
            SecurityException create = assertThrows(SecurityException.class,
                    () -> jmx.createMBean("javax.management.loading.MLet", name("test:type=MLet")));
            assertTrue(create.getMessage().contains("cannot be created"), create.getMessage());
            assertThrows(SecurityException.class, () -> jmx.unregisterMBean(MEMORY));
            assertThrows(SecurityException.class, () -> dumpHeap(jmx));
            assertEquals(false, ManagementFactory.getPlatformMBeanServer().isRegistered(name("test:type=MLet")));
        }
    }

    private static void dumpHeap(MBeanServerConnection jmx) throws Exception {
        jmx.invoke(HOTSPOT, "dumpHeap", new Object[] {tmp.resolve("heap.hprof").toString(), true},
                new String[] {String.class.getName(), boolean.class.getName()});
    }

    private static JMXConnector connectTls(String user, String password) throws IOException {
        Map<String, Object> env = new HashMap<>();
        env.put(JMXConnector.CREDENTIALS, new String[] {user, password});
        env.put("com.sun.jndi.rmi.factory.socket", new SslRMIClientSocketFactory()); // the registry speaks TLS too
        return JMXConnectorFactory.connect(url(tlsPort), env);
    }

    private static JMXServiceURL url(int port) throws IOException {
        return new JMXServiceURL("service:jmx:rmi:///jndi/rmi://127.0.0.1:" + port + "/jmxrmi");
    }

    private static Path ownerOnly(Path file, String text) throws IOException {
        Files.writeString(file, text);
        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-------"));
        return file;
    }

    private static String pem(Object o) throws IOException {
        StringWriter out = new StringWriter();
        try (JcaPEMWriter w = new JcaPEMWriter(out)) {
            w.writeObject(o);
        }
        return out.toString();
    }

    private static ObjectName name(String s) {
        try {
            return new ObjectName(s);
        } catch (javax.management.MalformedObjectNameException e) {
            throw new IllegalArgumentException(e);
        }
    }
}
