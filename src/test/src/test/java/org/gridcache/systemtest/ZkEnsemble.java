package org.gridcache.systemtest;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.LifecycleMethodExecutionExceptionHandler;
import org.junit.jupiter.api.extension.TestExecutionExceptionHandler;

/**
 * A real three-member ZooKeeper ensemble of {@code gridcache zk --ensemble … --id N} processes on free loopback
 * ports, each member killed and started again on its own; who leads is asked with ZooKeeper's {@code srvr} command.
 * Its ports lie outside the kernel's ephemeral range ({@link Tools#freePort}), so that no connection made while a
 * member is down takes the port it restarts on.
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

    /** Starts member {@code i} again (after {@link #kill}), without waiting; it says "is up" once it serves its port. */
    Gridcache startMember(int i) throws IOException {
        members[i] = Gridcache.start(dir.resolve("zk" + (i + 1) + "-" + System.nanoTime() + ".out"), "zk",
                "--home", dir.resolve("zk" + (i + 1)).toString(), "--ensemble", ensemble, "--id", String.valueOf(i + 1),
                "--log-dir", dir.resolve("logs").toString());
        return members[i];
    }

    /**
     * Each member's state, whether its process lives, and the end of its output and of its log's warnings: for the
     * message of a test on the ensemble that failed ({@link DescribedOnFailure}).
     */
    String describe() {
        StringBuilder out = new StringBuilder();
        for (int i = 0; i < 3; i++) {
            Gridcache m = members[i];
            out.append("member ").append(i + 1).append(" (client port ").append(ports[i][0]).append("): ").append(state(i))
                    .append(m == null ? ", never started" : m.isAlive() ? ", process alive" : ", process gone").append('\n');
            if (m != null) {
                tail(m.output().lines().filter(l -> l.startsWith("gridcache") || l.contains(" INFO ") || l.contains(" ERROR ")).toList(), 4, out);
            }
            Path log = dir.resolve("logs").resolve("zk-" + (i + 1) + ".log");
            try {
                if (Files.exists(log)) {
                    tail(Files.readAllLines(log).stream().filter(l -> (l.contains(" WARN ") || l.contains(" ERROR "))
                            && !l.contains("is OPEN") && !l.contains("configFilename") && !l.contains("maxCnxns")).toList(), 12, out);
                }
            } catch (IOException e) {
                out.append("  (log unreadable: ").append(e).append(")\n");
            }
        }
        return out.toString();
    }

    /**
     * Adds {@link #describe}, as it was when a test or its {@code @AfterEach} failed (before any repair), to the
     * failure's message: the message is what CI prints, and the members' files go with the test's directory.
     */
    static DescribedOnFailure describedOnFailure(Supplier<ZkEnsemble> ensemble) {
        return new DescribedOnFailure(ensemble);
    }

    static final class DescribedOnFailure implements TestExecutionExceptionHandler, LifecycleMethodExecutionExceptionHandler {
        private final Supplier<ZkEnsemble> ensemble;

        private DescribedOnFailure(Supplier<ZkEnsemble> ensemble) {
            this.ensemble = ensemble;
        }

        @Override
        public void handleTestExecutionException(ExtensionContext context, Throwable failure) {
            throw described(failure);
        }

        @Override
        public void handleAfterEachMethodExecutionException(ExtensionContext context, Throwable failure) {
            throw described(failure);
        }

        private AssertionError described(Throwable failure) {
            ZkEnsemble zk = ensemble.get();
            return new AssertionError(failure + "\nthe ensemble then:\n" + (zk == null ? "not started" : zk.describe()), failure);
        }
    }

    private static void tail(List<String> all, int lines, StringBuilder out) {
        for (String l : all.subList(Math.max(0, all.size() - lines), all.size())) {
            out.append("  | ").append(l.length() > 300 ? l.substring(0, 300) + "…" : l).append('\n');
        }
    }

    Gridcache member(int i) {
        return members[i];
    }

    /**
     * Starts every member whose process is gone and waits until all three serve in a quorum (a leader, two
     * followers): what a test that killed members leaves behind for the next, whether it passed or failed.
     */
    void restoreAll() throws IOException {
        for (int i = 0; i < 3; i++) {
            if (members[i] == null || !members[i].isAlive()) {
                startMember(i).awaitOutput("is up");
            }
        }
        Tools.await("the whole ensemble in a quorum", java.time.Duration.ofSeconds(90), () -> {
            List<String> states = List.of(state(0), state(1), state(2));
            return states.stream().filter("leader"::equals).count() == 1 && states.stream().filter("follower"::equals).count() == 2;
        });
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
