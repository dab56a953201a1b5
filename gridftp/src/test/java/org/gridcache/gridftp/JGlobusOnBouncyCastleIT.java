package org.gridcache.gridftp;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.lang.reflect.Executable;
import java.lang.reflect.Modifier;
import java.math.BigInteger;
import java.nio.file.Path;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.PrivateKey;
import java.security.cert.X509Certificate;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Date;
import java.util.List;
import java.util.TreeSet;
import java.util.jar.JarFile;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.spi.ToolProvider;
import java.util.stream.Stream;
import javax.security.auth.x500.X500Principal;
import org.bouncycastle.x509.X509V3CertificateGenerator;
import org.globus.gsi.GSIConstants;
import org.globus.gsi.X509Credential;
import org.globus.gsi.X509ExtensionSet;
import org.globus.gsi.bc.BouncyCastleCertProcessingFactory;
import org.globus.gsi.bc.BouncyCastleUtil;
import org.globus.gsi.proxy.ext.ProxyCertInfoExtension;
import org.globus.gsi.proxy.ext.ProxyPolicy;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * jGlobus 2.1.0 as it runs in gridcache: from the shaded jar (failsafe runs this after packaging, without the unshaded
 * jGlobus), on the root pom's BouncyCastle relocated. jGlobus was built against BouncyCastle 1.50: every member it links
 * against must exist in the BouncyCastle shaded beside it, and the credentials and proxies it makes and reads must work.
 * Only JDK types cross between this test and jGlobus (its BouncyCastle types are relocated, this test's are not).
 */
class JGlobusOnBouncyCastleIT {
    private static final String SHADED = "org/gridcache/gridftp/shaded/";
    /** What takes the place of BouncyCastle classes jGlobus used that are no longer public. */
    private static final String STAND_INS = "org/gridcache/gridftp/jglobus/";
    private static final Pattern MEMBER = Pattern.compile("// (Method|InterfaceMethod|Field) ([\\w/$]+)\\.(\"?<?[\\w$]+>?\"?):(\\S+)");
    private static final Pattern CLASS = Pattern.compile("// class ([\\w/$]+)");

    private static KeyPair keys;
    private static X509Certificate[] user;

    @BeforeAll
    @SuppressWarnings("deprecation")
    static void userCertificate() throws Exception {
        KeyPairGenerator rsa = KeyPairGenerator.getInstance("RSA");
        rsa.initialize(2048);
        keys = rsa.generateKeyPair();
        X509V3CertificateGenerator g = new X509V3CertificateGenerator(); // the test's own (unrelocated) BouncyCastle
        X500Principal dn = new X500Principal("CN=Test User,O=gridcache");
        g.setSerialNumber(BigInteger.ONE);
        g.setIssuerDN(dn);
        g.setSubjectDN(dn);
        g.setNotBefore(new Date(System.currentTimeMillis() - 60_000));
        g.setNotAfter(new Date(System.currentTimeMillis() + 3_600_000));
        g.setPublicKey(keys.getPublic());
        g.setSignatureAlgorithm("SHA256withRSA");
        user = new X509Certificate[] {g.generate(keys.getPrivate())};
    }

    @Test
    void everyBouncyCastleAndCommonsMemberJGlobusUsesExistsInTheShadedJar() throws Exception {
        Path jar = Path.of(X509Credential.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        assertTrue(jar.getFileName().toString().startsWith("gridcache-gridftp-"), "jGlobus comes from the shaded jar, not " + jar);
        List<String> classes = new ArrayList<>();
        try (JarFile file = new JarFile(jar.toFile())) {
            file.stream().map(e -> e.getName()).filter(n -> n.endsWith(".class") && !n.startsWith(SHADED) && !n.contains("module-info"))
                    .forEach(n -> classes.add(n.substring(0, n.length() - ".class".length()).replace('/', '.')));
        }
        assertTrue(classes.contains("org.globus.gsi.bc.BouncyCastleUtil"), "jGlobus is in " + jar);
        String code = disassemble(jar, classes);
        TreeSet<String> missing = new TreeSet<>();
        TreeSet<String> unrelocated = new TreeSet<>();
        ClassLoader loader = getClass().getClassLoader();
        Matcher m = MEMBER.matcher(code);
        int checked = 0;
        while (m.find()) {
            String owner = m.group(2);
            if (owner.startsWith("org/bouncycastle/") || owner.startsWith("org/apache/commons/io/") || owner.startsWith("org/apache/commons/codec/")) {
                unrelocated.add(m.group());
            } else if (owner.startsWith(SHADED) || owner.startsWith(STAND_INS)) {
                checked++;
                Class<?> type = Class.forName(owner.replace('/', '.'), false, loader);
                if (!Modifier.isPublic(type.getModifiers()) || !exists(type, m.group(1).equals("Field"), m.group(3).replace("\"", ""), m.group(4))) {
                    missing.add(m.group());
                }
            }
        }
        Matcher c = CLASS.matcher(code);
        while (c.find()) {
            String name = c.group(1);
            if (name.startsWith("org/bouncycastle/")) {
                unrelocated.add(c.group());
            } else if (name.startsWith(SHADED) || name.startsWith(STAND_INS)) {
                try {
                    if (!Modifier.isPublic(Class.forName(name.replace('/', '.'), false, loader).getModifiers())) {
                        missing.add(c.group());
                    }
                } catch (ClassNotFoundException | LinkageError e) {
                    missing.add(c.group());
                }
            }
        }
        assertTrue(checked > 100, "found the shaded members jGlobus uses: " + checked);
        assertEquals(new TreeSet<>(), unrelocated, "references past the relocation");
        assertEquals(new TreeSet<>(), missing, "members jGlobus links against that the shaded BouncyCastle or commons lack or do not let it use");
    }

    @Test
    void aCredentialMadeOfAJdkKeyWritesAndReadsItsKeyInPkcs1() throws Exception {
        X509Credential credential = new X509Credential(keys.getPrivate(), user);
        ByteArrayOutputStream pem = new ByteArrayOutputStream();
        credential.save(pem);
        assertTrue(pem.toString().contains("BEGIN RSA PRIVATE KEY"), pem.toString());
        X509Credential read = new X509Credential(new ByteArrayInputStream(pem.toByteArray()));
        PrivateKey key = read.getPrivateKey();
        assertArrayEquals(keys.getPrivate().getEncoded(), key.getEncoded());
        assertEquals(user[0], read.getCertificateChain()[0]);
    }

    @Test
    void proxiesJGlobusMakesCarryThePolicyAndConstraintItReadsBack() throws Exception {
        X509Credential impersonation = proxy(user, keys.getPrivate(), GSIConstants.CertificateType.GSI_4_IMPERSONATION_PROXY, null);
        assertEquals(GSIConstants.CertificateType.GSI_4_IMPERSONATION_PROXY,
                BouncyCastleUtil.getCertificateType(impersonation.getCertificateChain()[0]));
        assertEquals(Integer.MAX_VALUE, ProxyCertInfo.proxiesAllowedBelow(impersonation.getCertificateChain()));

        X509Credential limited = proxy(user, keys.getPrivate(), GSIConstants.CertificateType.GSI_4_LIMITED_PROXY, null);
        assertEquals(GSIConstants.CertificateType.GSI_4_LIMITED_PROXY, BouncyCastleUtil.getCertificateType(limited.getCertificateChain()[0]));

        X509Credential one = proxy(user, keys.getPrivate(), GSIConstants.CertificateType.GSI_4_IMPERSONATION_PROXY, 1);
        byte[] ext = one.getCertificateChain()[0].getExtensionValue(ProxyCertInfo.RFC3820_OID);
        assertEquals(1, ProxyCertInfo.pathLenConstraint(ext));
        assertEquals(1, ProxyCertInfo.proxiesAllowedBelow(one.getCertificateChain()));
        X509Credential below = proxy(one.getCertificateChain(), one.getPrivateKey(), GSIConstants.CertificateType.GSI_4_IMPERSONATION_PROXY, null);
        assertEquals(0, ProxyCertInfo.proxiesAllowedBelow(below.getCertificateChain()), "1 allowed, 1 used: DCAU cannot delegate");
        assertNotEquals(one.getCertificateChain()[0], below.getCertificateChain()[0]);
    }

    private static X509Credential proxy(X509Certificate[] chain, PrivateKey key, GSIConstants.CertificateType type, Integer pathLen)
            throws Exception {
        X509ExtensionSet extensions = null;
        if (pathLen != null) {
            extensions = new X509ExtensionSet();
            extensions.add(new ProxyCertInfoExtension(new org.globus.gsi.proxy.ext.ProxyCertInfo(pathLen,
                    new ProxyPolicy("1.3.6.1.5.5.7.21.1", null))));
        }
        return BouncyCastleCertProcessingFactory.getDefault().createCredential(chain, key, 2048, 3600, type, extensions, null);
    }

    private static String disassemble(Path jar, List<String> classes) {
        ToolProvider javap = ToolProvider.findFirst("javap").orElseThrow();
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        List<String> args = new ArrayList<>(List.of("-c", "-p", "-cp", jar.toString()));
        args.addAll(classes);
        int rc = javap.run(new PrintWriter(out), new PrintWriter(err), args.toArray(String[]::new));
        assertEquals(0, rc, err.toString());
        return out.toString();
    }

    /** Declared in the class or inherited, with exactly this descriptor, and public or protected. */
    private static boolean exists(Class<?> owner, boolean field, String name, String descriptor) {
        if (owner == null) {
            return false;
        }
        if (field) {
            if (Arrays.stream(owner.getDeclaredFields()).anyMatch(f -> f.getName().equals(name) && descriptor(f.getType()).equals(descriptor)
                    && usable(f.getModifiers()))) {
                return true;
            }
        } else {
            Stream<? extends Executable> candidates = name.equals("<init>") ? Arrays.stream(owner.getDeclaredConstructors())
                    : Arrays.stream(owner.getDeclaredMethods()).filter(x -> x.getName().equals(name));
            if (candidates.anyMatch(x -> descriptor(x).equals(descriptor) && usable(x.getModifiers()))) {
                return true;
            }
            if (name.equals("<init>")) {
                return false;
            }
        }
        return exists(owner.getSuperclass(), field, name, descriptor)
                || Arrays.stream(owner.getInterfaces()).anyMatch(i -> exists(i, field, name, descriptor));
    }

    private static boolean usable(int modifiers) {
        return Modifier.isPublic(modifiers) || Modifier.isProtected(modifiers);
    }

    private static String descriptor(Executable x) {
        StringBuilder d = new StringBuilder("(");
        for (Class<?> p : x.getParameterTypes()) {
            d.append(descriptor(p));
        }
        d.append(')');
        return d.append(x instanceof java.lang.reflect.Method method ? descriptor(method.getReturnType()) : "V").toString();
    }

    private static String descriptor(Class<?> type) {
        return type.describeConstable().map(c -> c.descriptorString()).orElseThrow();
    }
}
