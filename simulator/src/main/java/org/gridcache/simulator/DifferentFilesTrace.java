package org.gridcache.simulator;

import java.util.stream.IntStream;
import java.util.stream.Stream;

/**
 * The seed paper's second workload, as bench/seed-experiment.sh runs it: {@code jobs} jobs each read a new file of
 * their own (cold), then the same jobs read their files again (hot). A policy that sends the hot read to a pool other
 * than the one that fetched the file pays for it with a peer question or an origin read.
 */
public final class DifferentFilesTrace implements Trace {
    private final int jobs;
    private final long fileSize;

    public DifferentFilesTrace(int jobs, long fileSize) {
        if (jobs < 1 || fileSize < 0) {
            throw new IllegalArgumentException("different-files needs jobs >= 1 and a file size >= 0; got " + jobs + ", " + fileSize);
        }
        this.jobs = jobs;
        this.fileSize = fileSize;
    }

    @Override
    public String name() {
        return "different files, " + jobs + " jobs cold+hot";
    }

    @Override
    public Stream<Read> reads() {
        return IntStream.range(0, 2 * jobs).mapToObj(i -> new Read(path(i % jobs), fileSize));
    }

    static String path(int job) {
        return "/seed/job-" + job + ".bin";
    }
}
