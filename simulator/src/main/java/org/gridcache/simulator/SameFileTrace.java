package org.gridcache.simulator;

import java.util.stream.Stream;

/**
 * The seed paper's first workload, as bench/seed-experiment.sh runs it: {@code jobs} jobs read one new file at once
 * (cold), then the same jobs read it again (hot). With the simulator's concurrency at least {@code jobs}, the cold
 * jobs overlap as in the benchmark, which is what makes a policy read a hot new file from the origin more than once.
 */
public final class SameFileTrace implements Trace {
    static final String PATH = "/seed/same.bin";
    private final int jobs;
    private final long fileSize;

    public SameFileTrace(int jobs, long fileSize) {
        if (jobs < 1 || fileSize < 0) {
            throw new IllegalArgumentException("same-file needs jobs >= 1 and a file size >= 0; got " + jobs + ", " + fileSize);
        }
        this.jobs = jobs;
        this.fileSize = fileSize;
    }

    @Override
    public String name() {
        return "same file, " + jobs + " jobs cold+hot";
    }

    @Override
    public Stream<Read> reads() {
        return Stream.generate(() -> new Read(PATH, fileSize)).limit(2L * jobs);
    }
}
