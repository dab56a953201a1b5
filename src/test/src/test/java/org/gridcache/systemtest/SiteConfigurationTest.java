package org.gridcache.systemtest;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A site's configuration files against the real distribution: a misspelt key or a bad value stops a door or pool
 * before it starts, with one line naming the file and line; {@code gridcache check-config} prints where each value
 * came from and one verdict a check, and exits non-zero on a failure.
 */
class SiteConfigurationTest {
    @TempDir
    Path tmp;

    @Test
    void aMisspeltKeyOrABadValueStartsNothing() throws Exception {
        Path logs = tmp.resolve("logs");
        Path conf = Files.writeString(tmp.resolve("door.conf"), "plain-http=true\nlog-dir=" + logs + "\nportt=2880\n");
        Tools.Result typo = Gridcache.admin("door", "--config", conf.toString());
        assertEquals(2, typo.exit(), typo.toString());
        assertEquals("", typo.out());
        assertEquals("gridcache: " + conf + ":3: no option reads 'portt' (did you mean 'port'?)\n", typo.err());
        Files.writeString(conf, "plain-http=true\nlog-dir=" + logs + "\n\ncapacity=ten\n");
        Tools.Result value = Gridcache.admin("pool", "--config", conf.toString(), "--name", "p1");
        assertEquals(2, value.exit(), value.toString());
        assertTrue(value.err().startsWith("gridcache: " + conf + ":4: capacity=ten: "), value.err());
        assertEquals(1, value.err().lines().count(), value.err());
        assertFalse(Files.exists(logs), "a refused configuration starts nothing, and logs nothing");
    }

    @Test
    void checkConfigShowsEachValuesSourceAndOneVerdictACheck() throws Exception {
        Path pki = GridEnv.pki(tmp.resolve("pki"));
        int zkPort = Tools.freePort();
        try (Gridcache zk = Gridcache.start(tmp.resolve("zk.out"), "zk", "--home", tmp.resolve("zk").toString(),
                "--port", String.valueOf(zkPort)).awaitOutput("is up");
                ServerSocket taken = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            Path conf = Files.writeString(tmp.resolve("pool.conf"), "zk=127.0.0.1:" + zkPort
                    + "\nhost-cert=" + pki.resolve("host/cert.pem") + "\nhost-key=" + pki.resolve("host/key.pem")
                    + "\nca-dir=" + pki.resolve("certificates") + "\nname=p1\nstore=" + tmp.resolve("store")
                    + "\ncapacity=1G\nport=" + taken.getLocalPort() + "\n");
            Tools.Result busy = Gridcache.admin("check-config", "pool", "--config", conf.toString());
            assertEquals(1, busy.exit(), busy.toString());
            List<String> lines = busy.out().lines().toList();
            assertTrue(lines.contains(String.format("%-60s # %s", "zk=127.0.0.1:" + zkPort, conf + ":1")), busy.out());
            assertTrue(lines.contains(String.format("%-60s # default", "site=default")), busy.out());
            assertTrue(lines.stream().anyMatch(l -> l.startsWith("ok    host certificate " + pki.resolve("host/cert.pem")
                    + ": CN=localhost,")), busy.out());
            assertTrue(lines.stream().anyMatch(l -> l.startsWith("ok    CA directory " + pki.resolve("certificates") + ": ")), busy.out());
            assertTrue(lines.stream().anyMatch(l -> l.startsWith("FAIL  port 127.0.0.1:" + taken.getLocalPort() + ": cannot listen")),
                    busy.out());
            assertTrue(lines.contains("ok    store " + tmp.resolve("store") + ": will be created in " + tmp), busy.out());
            assertTrue(lines.contains("ok    ZooKeeper 127.0.0.1:" + zkPort + ": 1 of 1 reachable"), busy.out());

            int free = Tools.freePort();
            Tools.Result ok = Gridcache.admin("check-config", "pool", "--config", conf.toString(), "--port", String.valueOf(free));
            assertEquals(0, ok.exit(), ok.toString());
            assertTrue(ok.out().lines().anyMatch(String.format("%-60s # flag --port", "port=" + free)::equals), ok.out());

            Tools.Result crossed = Gridcache.admin("check-config", "pool", "--config", conf.toString(), "--port", String.valueOf(free),
                    "--host-key", pki.resolve("users/alice/key.pem").toString());
            assertEquals(1, crossed.exit(), crossed.toString());
            assertTrue(crossed.out().lines().anyMatch(l -> l.startsWith("FAIL  host certificate " + pki.resolve("host/cert.pem")
                    + ": ") && l.endsWith("not matching the certificate")), crossed.out());
        }
    }
}
