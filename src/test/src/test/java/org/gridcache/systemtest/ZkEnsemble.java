package org.gridcache.systemtest;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * A real three-member ZooKeeper ensemble of {@code gridcache zk --ensemble … --id N} processes on free loopback
 * ports, each member killed and started again on its own; who leads is asked with ZooKeeper's {@code srvr} command.
 */
final class ZkEnsemble implements AutoCloseable {
    private final Path dir;
    private final Gridcache[] members = new Gridcache[3];
    private final int[][] ports = new int[3][3];
    private final String ensemble;
    private final String connectString;

    private ZkEnsemble(Path dir) {
        this.dir = dir;
        List<String> servers = new ArrayList<>();
        List<String> clients = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            for (int j = 0; j < 3; j++) {
                ports[i][j] = Tools.freePort();
            }
            servers.add("127.0.0.1:" + ports[i][0] + ":" + ports[i][1] + ":" + ports[i][2]);
            clients.add("127.0.0.1:" + ports[i][0]);
        }
        ensemble = String.join(",", servers);
        connectString = String.join(",", clients);
    }

    /** Starts the three members (homes and output in {@code dir}, logs in {@code dir/logs}) and waits until each is up. */
    static ZkEnsemble start(Path dir) throws IOException {
        ZkEnsemble zk = new ZkEnsemble(dir);
        for (int i = 0; i < 3; i++) {
            zk.members[i] = zk.startMember(i);
        }
        for (Gridcache member : zk.members) {
            member.awaitOutput("is up");
        }
        return zk;
    }

    /** What clients connect to: every member. */
    String connectString() {
        return connectString;
    }

    /** Starts member {@code i} again (after {@link #kill}), without waiting. */
    Gridcache startMember(int i) throws IOException {
        members[i] = Gridcache.start(dir.resolve("zk" + (i + 1) + "-" + System.nanoTime() + ".out"), "zk",
                "--home", dir.resolve("zk" + (i + 1)).toString(), "--ensemble", ensemble, "--id", String.valueOf(i + 1),
                "--log-dir", dir.resolve("logs").toString());
        return members[i];
    }

    /** kill -9 of member {@code i}. */
    void kill(int i) throws InterruptedException {
        members[i].kill();
    }

    /** "leader", "follower", "other" (looking for a leader) or "down". */
    String state(int i) {
        try (Socket s = new Socket("127.0.0.1", ports[i][0])) {
            s.setSoTimeout(3000);
            OutputStream out = s.getOutputStream();
            out.write("srvr".getBytes(StandardCharsets.US_ASCII));
            out.flush();
            InputStream in = s.getInputStream();
            String answer = new String(in.readAllBytes(), StandardCharsets.US_ASCII);
            return answer.contains("Mode: leader") ? "leader" : answer.contains("Mode: follower") ? "follower" : "other";
        } catch (IOException e) {
            return "down";
        }
    }

    /** The index of the leader, or -1 while there is none. */
    int leader() {
        for (int i = 0; i < 3; i++) {
            if (state(i).equals("leader")) {
                return i;
            }
        }
        return -1;
    }

    @Override
    public void close() throws Exception {
        Tools.closeAll(members);
    }
}
