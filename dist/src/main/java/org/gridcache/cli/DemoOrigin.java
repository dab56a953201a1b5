package org.gridcache.cli;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Random;

/** A small local origin for the first run: a few text files and some random data files in a directory tree. */
final class DemoOrigin {
    private DemoOrigin() {
    }

    static Path create(Path dir) throws IOException {
        if (Files.isDirectory(dir)) {
            return dir;
        }
        Path tmp = Files.createDirectories(dir.resolveSibling(dir.getFileName() + ".tmp"));
        Files.writeString(tmp.resolve("README.txt"), """
                This is gridcache's demo origin: the files you see through the door (http://localhost:2880/)
                live in this directory. Reads are redirected to the cache pool, which fetches each file once.
                Try:  curl -L -O http://localhost:2880/data/random-16M.bin
                """, StandardCharsets.UTF_8);
        Files.writeString(tmp.resolve("hello.txt"), "hello from the grid\n", StandardCharsets.UTF_8);
        Path data = Files.createDirectories(tmp.resolve("data"));
        random(data.resolve("random-1M.bin"), 1 << 20, 1);
        random(data.resolve("random-16M.bin"), 16 << 20, 16);
        Files.move(tmp, dir);
        return dir;
    }

    private static void random(Path file, int size, long seed) throws IOException {
        Random random = new Random(seed);
        byte[] block = new byte[64 << 10];
        try (OutputStream out = Files.newOutputStream(file)) {
            for (int written = 0; written < size; written += block.length) {
                random.nextBytes(block);
                out.write(block, 0, Math.min(block.length, size - written));
            }
        }
    }
}
