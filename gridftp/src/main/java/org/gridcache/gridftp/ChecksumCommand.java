package org.gridcache.gridftp;

import java.util.Locale;
import org.globus.ftp.vanilla.Reply;

/**
 * CKSM (the Globus extension): the command and how to read its replies. Servers say "not offered" in several ways (500,
 * 501, 502 or 504), and some use the same codes for a missing file, which the text then names.
 */
final class ChecksumCommand {
    private ChecksumCommand() {
    }

    /** CKSM of the whole file. */
    static String command(Checksum algorithm, String path) {
        return "CKSM " + algorithm.name() + " 0 -1 " + path;
    }

    /** Whether a refusal (already classified as {@code kind}) means the server does not offer the algorithm. */
    static boolean notOffered(GridFtpException.Kind kind, Reply refusal) {
        if (kind != GridFtpException.Kind.FAILED || refusal == null) {
            return false;
        }
        int code = refusal.getCode();
        return (code == 500 || code == 501 || code == 502 || code == 504) && refusal.getMessage() != null
                && !refusal.getMessage().toLowerCase(Locale.ROOT).contains("no such");
    }

    /** The checksum in a positive reply, in {@link Checksum#normalize} form; null when the reply carries none. */
    static String value(Checksum algorithm, Reply reply) {
        if (!Reply.isPositiveCompletion(reply) || reply.getMessage() == null || reply.getMessage().isBlank()) {
            return null;
        }
        return algorithm.normalize(reply.getMessage().trim().split("\\s+")[0]);
    }
}
