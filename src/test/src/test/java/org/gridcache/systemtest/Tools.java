package org.gridcache.systemtest;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import org.awaitility.Awaitility;
import org.awaitility.core.ConditionFactory;
import org.gridcache.common.TestPorts;
import org.junit.jupiter.api.Assertions;
import org.junit.jupiter.api.Assumptions;

/** Running real client programs, checking they exist, free ports, data files and checksums. */
final class Tools {
    private Tools() {
    }

    /** The result of a finished program. */
    record Result(int exit, String out, String err) {
        Result assertOk() {
            Assertions.assertEquals(0, exit, () -> "exit " + exit + "\nstdout: " + out + "\nstderr: " + err);
            return this;
        }
    }

    /**
     * Skips loudly when a tool is missing on a developer machine; in CI (CI=true) a missing tool fails, because
     * .ci/run installs every tool the tests need.
     */
    static void require(String... tools) {
        for (String tool : tools) {
            boolean found = Path.of("/usr/bin", tool).toFile().canExecute() || Path.of("/usr/sbin", tool).toFile().canExecute()
                    || Path.of("/sbin", tool).toFile().canExecute();
            if (!found) {
                String message = "SYSTEM TEST NEEDS '" + tool + "', WHICH IS NOT INSTALLED (run .ci/run or apt-get install it)";
                System.err.println("!!! " + message);
                if ("true".equals(System.getenv("CI"))) {
                    Assertions.fail(message);
                }
                Assumptions.abort(message);
            }
        }
    }

    /** As {@link #require}, for a program at a path of its own ({@code what} says how to make it). */
    static void requireExecutable(Path program, String what) {
        requireThere(Files.isExecutable(program), program, what);
    }

    /** As {@link #require}, for a file a tool needs (a library of an interpreter); {@code what} says how to install it. */
    static void requireFile(Path file, String what) {
        requireThere(Files.isRegularFile(file), file, what);
    }

    private static void requireThere(boolean there, Path path, String what) {
        if (!there) {
            String message = "SYSTEM TEST NEEDS " + what + ", BUT " + path.toAbsolutePath().normalize() + " IS NOT THERE";
            System.err.println("!!! " + message);
            if ("true".equals(System.getenv("CI"))) {
                Assertions.fail(message);
            }
            Assumptions.abort(message);
        }
    }

    static Result run(Duration timeout, String... command) {
        return runWithInput(timeout, null, command);
    }

    static Result runWithInput(Duration timeout, String stdin, String... command) {
        try {
            Path out = Files.createTempFile("gc-out", ".txt");
            Path err = Files.createTempFile("gc-err", ".txt");
            ProcessBuilder pb = new ProcessBuilder(command).redirectOutput(out.toFile()).redirectError(err.toFile());
            Process p = pb.start();
            if (stdin != null) {
                p.getOutputStream().write(stdin.getBytes(StandardCharsets.UTF_8));
            }
            p.getOutputStream().close();
            if (!p.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
                p.destroyForcibly().waitFor();
                Assertions.fail("timed out after " + timeout + ": " + String.join(" ", command));
            }
            Result r = new Result(p.exitValue(), Files.readString(out), Files.readString(err));
            Files.delete(out);
            Files.delete(err);
            return r;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError(e);
        }
    }

    /** curl with a bound on time; extra arguments as given. */
    static Result curl(String... args) {
        List<String> cmd = new ArrayList<>(List.of("curl", "-sS", "--max-time", "120"));
        cmd.addAll(List.of(args));
        return run(Duration.ofSeconds(150), cmd.toArray(String[]::new));
    }

    /** A loopback port for a process the test starts ({@link TestPorts#freePort}: never one the kernel hands out). */
    static int freePort() {
        return TestPorts.freePort();
    }

    static Path randomFile(Path file, long size, long seed) throws IOException {
        Files.createDirectories(file.getParent());
        Random random = new Random(seed);
        byte[] block = new byte[1 << 16];
        try (var out = Files.newOutputStream(file)) {
            for (long written = 0; written < size; written += block.length) {
                random.nextBytes(block);
                out.write(block, 0, (int) Math.min(block.length, size - written));
            }
        }
        return file;
    }

    /** A file's text, empty while it does not exist (a log not written yet), for conditions awaited. */
    static String readOrEmpty(Path file) {
        try {
            return Files.exists(file) ? Files.readString(file) : "";
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    /**
     * A log or transfer-record file of gridcache's with what its daily rollover moved out of it before
     * ({@code <name>.<date>.<i>.log.gz}, {@code <name>.jsonl.<date>.<i>.gz}), oldest first; "" when there is none.
     * Bytes that are not UTF-8 become U+FFFD: a test reads what a log says, whatever a line quoted.
     */
    static String readLog(Path file) {
        String name = file.getFileName().toString();
        String stem = (name.endsWith(".log") ? name.substring(0, name.length() - 4) : name) + ".";
        StringBuilder text = new StringBuilder();
        try (var files = Files.list(file.getParent())) {
            for (Path rolled : files.filter(f -> f.getFileName().toString().startsWith(stem)
                    && f.getFileName().toString().endsWith(".gz")).sorted().toList()) {
                try (var in = new java.util.zip.GZIPInputStream(Files.newInputStream(rolled))) {
                    text.append(new String(in.readAllBytes(), StandardCharsets.UTF_8));
                }
            }
            if (Files.exists(file)) {
                text.append(new String(Files.readAllBytes(file), StandardCharsets.UTF_8));
            }
        } catch (java.nio.file.NoSuchFileException e) {
            return "";
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return text.toString();
    }

    /** {@link #readLog} of every {@code <prefix>*.log} in {@code dir}. */
    static String readLogs(Path dir, String prefix) {
        try (var files = Files.list(dir)) {
            StringBuilder text = new StringBuilder();
            for (Path log : files.filter(f -> f.getFileName().toString().startsWith(prefix)
                    && f.getFileName().toString().endsWith(".log")).sorted().toList()) {
                text.append(readLog(log));
            }
            return text.toString();
        } catch (java.nio.file.NoSuchFileException e) {
            return "";
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static String sha256(Path file) throws IOException {
        try (var in = Files.newInputStream(file)) {
            return sha256(in);
        }
    }

    /** The sha-256 of what {@code in} gives until its end, in hex. */
    static String sha256(java.io.InputStream in) throws IOException {
        try {
            MessageDigest md = MessageDigest.getInstance("SHA-256");
            byte[] buf = new byte[1 << 16];
            for (int n; (n = in.read(buf)) > 0; ) {
                md.update(buf, 0, n);
            }
            return HexFormat.of().formatHex(md.digest());
        } catch (NoSuchAlgorithmException e) {
            throw new AssertionError(e);
        }
    }

    /**
     * The one way system tests wait for another process: Awaitility, polling every 50 ms from the start, named
     * {@code what} in the failure ("Condition with alias 'what' didn't complete within ..."). Use
     * {@code .until(...)} for a condition, {@code .untilAsserted(...)} to wait for assertions to hold.
     */
    static ConditionFactory await(String what, Duration timeout) {
        return Awaitility.await(what).atMost(timeout).pollDelay(Duration.ZERO).pollInterval(Duration.ofMillis(50));
    }

    /** {@link #await(String, Duration)} until {@code condition} holds; fails after {@code timeout}. */
    static void await(String what, Duration timeout, BooleanSupplier condition) {
        await(what, timeout).until(condition::getAsBoolean);
    }

    /** Closes what was started, in reverse order, skipping what never started. */
    static void closeAll(AutoCloseable... parts) throws Exception {
        for (int i = parts.length - 1; i >= 0; i--) {
            if (parts[i] != null) {
                parts[i].close();
            }
        }
    }
}
