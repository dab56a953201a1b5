package org.gridcache.systemtest;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * zk, one pool ({@code p1}) and one door of the distribution as HTTPS processes with gridenv's host credential
 * ({@code CN=localhost}, which the door trusts as a pool identity), one origin mounted: the grid system tests' cluster.
 */
record HttpsCluster(Gridcache zk, Gridcache pool, Gridcache door, String doorUrl) implements AutoCloseable {
    static final String HOST_DN = "/DC=org/DC=example/OU=hosts/CN=localhost";

    /** {@code policy}: the door's authorization file; {@code mount}: {@code gridcache origins add}'s arguments. */
    static HttpsCluster start(Path dir, Path pki, String policy, String... mount) throws IOException {
        int zkPort = Tools.freePort();
        String zkConnect = "127.0.0.1:" + zkPort;
        Gridcache zk = Gridcache.start(dir.resolve("zk.out"), "zk", "--home", dir.resolve("zk").toString(), "--port",
                String.valueOf(zkPort)).awaitOutput("is up");
        List<String> add = new ArrayList<>(List.of("origins", "add"));
        add.addAll(List.of(mount));
        add.addAll(List.of("--zk", zkConnect));
        Gridcache.admin(add.toArray(String[]::new)).assertOk();
        Path authz = Files.writeString(dir.resolve("authz.conf"), policy);
        Path conf = Files.writeString(dir.resolve("gridcache.properties"), "zk=" + zkConnect
                + "\nhost-cert=" + pki.resolve("host/cert.pem") + "\nhost-key=" + pki.resolve("host/key.pem")
                + "\nca-dir=" + pki.resolve("certificates") + "\nvomsdir=" + pki.resolve("vomsdir") + "\n");
        String logs = dir.resolve("logs").toString();
        Gridcache pool = Gridcache.start(dir.resolve("p1.out"), "pool", "--config", conf.toString(), "--log-dir", logs,
                "--name", "p1", "--store", dir.resolve("store").toString(), "--capacity", "1G",
                "--port", String.valueOf(Tools.freePort())).awaitOutput("is up");
        int doorPort = Tools.freePort();
        String doorUrl = "https://localhost:" + doorPort;
        Gridcache door = Gridcache.start(dir.resolve("door.out"), "door", "--config", conf.toString(), "--log-dir", logs,
                "--port", String.valueOf(doorPort), "--public-url", doorUrl, "--authz", authz.toString(), "--pool-identity", HOST_DN)
                .awaitOutput("is up");
        return new HttpsCluster(zk, pool, door, doorUrl);
    }

    /** The ZooKeeper connect string of the cluster started in {@code dir}, for admin commands. */
    static String zkConnect(Path dir) throws IOException {
        return Files.readAllLines(dir.resolve("gridcache.properties")).get(0).substring("zk=".length());
    }

    @Override
    public void close() throws Exception {
        Tools.closeAll(zk, pool, door);
    }
}
