package org.gridcache.common.checksum;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/** {@link ChecksumComputation#compileEarly}: the updates run compiled, with their intrinsics, before any fill. */
class CompileEarlyTest {
    /** A PrintCompilation line of a method compiled by C2 (tier 4), not one made not entrant. */
    private static final Pattern C2 = Pattern.compile("\\s4\\s+java\\.util\\.zip\\.(Adler32|CRC32C)::update \\(\\d+ bytes\\)$");

    /** In a JVM of its own: compiles early, then waits for the test to end it. */
    public static final class Main {
        public static void main(String[] args) throws Exception {
            ChecksumComputation.compileEarly();
            System.in.read(); // until the test ends it
        }
    }

    @Test
    void c2CompilesBothUpdatesFromTheCallsAlone() throws Exception {
        Process jvm = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-XX:+PrintCompilation", "-cp", System.getProperty("java.class.path"), Main.class.getName())
                .redirectErrorStream(true).start();
        List<String> compiled = new CopyOnWriteArrayList<>(); // read here while the reader may still add
        // the JIT's threads print as they finish: the output is read until both lines came, the JVM ended, or 60 s
        CompletableFuture<Void> reading = CompletableFuture.runAsync(() -> {
            try (BufferedReader out = new BufferedReader(new InputStreamReader(jvm.getInputStream(), StandardCharsets.UTF_8))) {
                for (String line; compiled.size() < 2 && (line = out.readLine()) != null; ) {
                    var m = C2.matcher(line);
                    if (m.find() && !compiled.contains(m.group(1))) {
                        compiled.add(m.group(1));
                    }
                }
            } catch (java.io.IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
        });
        try {
            reading.get(60, TimeUnit.SECONDS);
        } catch (TimeoutException e) {
            // asserted below: what was compiled in time
        } finally {
            jvm.destroyForcibly();
            jvm.waitFor(30, TimeUnit.SECONDS);
        }
        assertEquals(List.of("Adler32", "CRC32C"), compiled.stream().sorted().toList());
    }
}
