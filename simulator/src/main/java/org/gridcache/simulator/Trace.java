package org.gridcache.simulator;

import java.util.stream.Stream;

/**
 * A workload: a finite stream of reads in arrival order. Every call of {@link #reads()} starts it afresh with the same
 * reads, so that each policy is compared on exactly the same sequence. Callers close the stream (a file trace holds
 * the file open).
 */
public interface Trace {

    /** What the report calls it, with the parameters that make it this trace. */
    String name();

    Stream<Read> reads();
}
