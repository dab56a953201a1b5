package org.gridcache.systemtest;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assertions;

/** One process of the built distribution ({@code bin/gridcache …}), its output in a file, killed on close. */
final class Gridcache implements AutoCloseable {
    static final Path DIST = Path.of(System.getProperty("gridcache.dist", "../../dist/target/gridcache"));
    private final Process process;
    private final Path output;

    private Gridcache(Process process, Path output) {
        this.process = process;
        this.output = output;
    }

    static Gridcache start(Path output, String... args) throws IOException {
        return start(java.util.Map.of(), output, args);
    }

    /** As {@link #start(Path, String...)}, with extra environment variables (e.g. GRIDCACHE_JAVA_OPTS). */
    static Gridcache start(java.util.Map<String, String> env, Path output, String... args) throws IOException {
        return start(env, (String) null, output, args);
    }

    /** As {@link #start(java.util.Map, Path, String...)}, under the file mode creation mask {@code umask} (null: ours). */
    static Gridcache start(java.util.Map<String, String> env, String umask, Path output, String... args) throws IOException {
        return start(env, umask == null ? List.of() : List.of("sh", "-c", "umask \"$0\" && exec \"$@\"", umask), output, args);
    }

    /**
     * As {@link #start(Path, String...)}, run by {@code wrapper} (a command that execs its arguments, such as
     * {@code nsenter -t PID -m}: the process started is then still the JVM).
     */
    static Gridcache start(java.util.Map<String, String> env, List<String> wrapper, Path output, String... args) throws IOException {
        Path bin = DIST.resolve("bin/gridcache");
        Assertions.assertTrue(Files.isExecutable(bin), "no distribution at " + DIST + " (run mvn package first)");
        List<String> cmd = new ArrayList<>(wrapper);
        cmd.add(bin.toString());
        cmd.addAll(List.of(args));
        Files.createDirectories(output.getParent());
        ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(output.toFile());
        pb.environment().putAll(env);
        Process p = pb.start();
        return new Gridcache(p, output);
    }

    /**
     * Pool {@code p<n>} of a cluster test, started (not yet up): settings from {@code conf}, its store {@code store<n>}
     * under {@code dir} (the same on a restart), a free port, its output in a new file there.
     */
    static Gridcache pool(Path dir, Path conf, int n, String capacity) throws IOException {
        return start(dir.resolve("pool" + n + "-" + System.nanoTime() + ".out"), "pool", "--config", conf.toString(),
                "--name", "p" + n, "--store", dir.resolve("store" + n).toString(), "--capacity", capacity,
                "--port", String.valueOf(Tools.freePort()));
    }

    /** Runs an admin command (origins, config) to completion. */
    static Tools.Result admin(String... args) {
        List<String> cmd = new ArrayList<>(List.of(DIST.resolve("bin/gridcache").toString()));
        cmd.addAll(List.of(args));
        return Tools.run(Duration.ofSeconds(60), cmd.toArray(String[]::new));
    }

    /**
     * Sets {@code tpc.allowed-hosts} to {@code hosts} (a test's remotes listen on loopback, which a third-party copy
     * may reach only when the site lists it) and waits until {@code nodes} nodes writing to {@code output} applied it.
     */
    static void allowTpcTo(String zk, String hosts, java.util.function.Supplier<String> output, int nodes) {
        allowTpcTo(args -> {
            List<String> withZk = new ArrayList<>(List.of(args));
            withZk.addAll(List.of("--zk", zk));
            return admin(withZk.toArray(String[]::new));
        }, hosts, output, nodes);
    }

    /** As {@link #allowTpcTo(String, String, java.util.function.Supplier, int)}, setting it with {@code admin} (a standalone's). */
    static void allowTpcTo(java.util.function.Function<String[], Tools.Result> admin, String hosts, java.util.function.Supplier<String> output,
            int nodes) {
        String applied = "tpc.allowed-hosts=" + hosts;
        java.util.function.ToLongFunction<String> applications = out -> out.lines().filter(l -> l.contains("cluster settings now")
                && (l.contains(applied + "}") || l.contains(applied + ", "))).count();
        long before = applications.applyAsLong(output.get());
        admin.apply(new String[] {"config", "set", "tpc.allowed-hosts", hosts}).assertOk();
        Tools.await("the nodes to apply " + applied, Duration.ofSeconds(30), () -> applications.applyAsLong(output.get()) >= before + nodes);
    }

    /** Waits for a line in the process output (e.g. "is up"); fails early if the process died. */
    Gridcache awaitOutput(String text) {
        Tools.await("'" + text + "' from gridcache (output " + output + ")", Duration.ofSeconds(60), () -> {
            if (!process.isAlive()) {
                Assertions.fail("gridcache exited with " + process.exitValue() + ": " + output());
            }
            return output().contains(text);
        });
        return this;
    }

    String output() {
        try {
            return Files.exists(output) ? Files.readString(output) : "";
        } catch (IOException e) {
            return "";
        }
    }

    boolean isAlive() {
        return process.isAlive();
    }

    /** The process id (bin/gridcache execs the JVM, so this is the JVM). */
    long pid() {
        return process.pid();
    }

    /** SIGSTOP then, later, SIGCONT: a process that hangs (long GC pause, swapped out) past its ZooKeeper session. */
    void pause() {
        Tools.run(Duration.ofSeconds(10), "kill", "-STOP", String.valueOf(pid())).assertOk();
    }

    void resume() {
        Tools.run(Duration.ofSeconds(10), "kill", "-CONT", String.valueOf(pid())).assertOk();
    }

    /** SIGKILL, as a crash would. */
    void kill() throws InterruptedException {
        process.destroyForcibly();
        process.waitFor(30, TimeUnit.SECONDS);
    }

    @Override
    public void close() throws InterruptedException {
        process.destroy(); // SIGTERM: a clean shutdown through the shutdown hook
        if (!process.waitFor(30, TimeUnit.SECONDS)) {
            process.destroyForcibly().waitFor(30, TimeUnit.SECONDS);
        }
    }
}
