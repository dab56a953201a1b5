package org.gridcache.pool.tpc;

/**
 * The body of a third-party copy's answer ({@code text/perf-marker-stream}), as dCache and XRootD write it and davix
 * parses it: a block per interval with the bytes moved so far, then one last line, {@code success: Created} or
 * {@code failure: <reason>}. Clients judge the copy by that last line, not by the status (202, sent first).
 */
final class PerfMarkers {
    static final String CONTENT_TYPE = "text/perf-marker-stream";
    static final String SUCCESS = "success: Created\n";

    private PerfMarkers() {
    }

    /** One marker: single stripe, {@code bytes} moved so far, at {@code epochSeconds}. */
    static String marker(long epochSeconds, long bytes) {
        return "Perf Marker\n"
                + "\tTimestamp: " + epochSeconds + "\n"
                + "\tStripe Index: 0\n"
                + "\tStripe Bytes Transferred: " + bytes + "\n"
                + "\tTotal Stripe Count: 1\n"
                + "End\n";
    }

    /** The last line of a failed copy: one line, whatever {@code reason} holds (never a secret: callers say why in their words). */
    static String failure(String reason) {
        String line = reason == null || reason.isBlank() ? "the copy failed" : reason.strip().lines().findFirst().orElse("");
        return "failure: " + line + "\n";
    }
}
