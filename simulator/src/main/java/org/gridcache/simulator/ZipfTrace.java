package org.gridcache.simulator;

import java.util.Arrays;
import java.util.SplittableRandom;
import java.util.stream.LongStream;
import java.util.stream.Stream;

/**
 * Reads of {@code files} files of one size, file {@code k} (from 0) chosen with probability proportional to
 * {@code 1 / (k + 1)^exponent}: the skew measured for web and grid caches (Breslau et al., "Web caching and Zipf-like
 * distributions", INFOCOM 1999, found exponents of 0.64 to 0.83). Seeded, so every run draws the same reads.
 */
public final class ZipfTrace implements Trace {
    private final int files;
    private final double exponent;
    private final long reads;
    private final long fileSize;
    private final long seed;
    /** Cumulative probabilities: one binary search per read instead of a rejection sampler whose cost depends on the exponent. */
    private final double[] cumulative;

    public ZipfTrace(int files, double exponent, long reads, long fileSize, long seed) {
        if (files < 1 || exponent < 0 || reads < 0 || fileSize < 0) {
            throw new IllegalArgumentException("zipf needs files >= 1, exponent >= 0, reads >= 0, file size >= 0; got "
                    + files + ", " + exponent + ", " + reads + ", " + fileSize);
        }
        this.files = files;
        this.exponent = exponent;
        this.reads = reads;
        this.fileSize = fileSize;
        this.seed = seed;
        cumulative = new double[files];
        double sum = 0;
        for (int k = 0; k < files; k++) {
            sum += Math.pow(k + 1, -exponent);
            cumulative[k] = sum;
        }
        for (int k = 0; k < files; k++) {
            cumulative[k] /= sum;
        }
    }

    @Override
    public String name() {
        return "zipf s=" + exponent + ", " + files + " files";
    }

    @Override
    public Stream<Read> reads() {
        SplittableRandom random = new SplittableRandom(seed);
        return LongStream.range(0, reads).mapToObj(i -> new Read(path(file(random.nextDouble())), fileSize));
    }

    private int file(double u) {
        int at = Arrays.binarySearch(cumulative, u);
        int k = at >= 0 ? at : -at - 1;
        return Math.min(k, files - 1); // rounding may leave the last cumulative a hair under 1
    }

    static String path(int file) {
        return "/zipf/f" + file;
    }
}
