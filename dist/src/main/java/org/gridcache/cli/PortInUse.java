package org.gridcache.cli;

import java.net.BindException;
import java.util.concurrent.Callable;

/**
 * A listening socket that cannot be had because another process holds the port: told as the port and the option that
 * chose it, in one line, instead of the server library's {@code Address already in use}.
 */
final class PortInUse {
    private PortInUse() {
    }

    /** Runs {@code start}, which listens on {@code host:port} as {@code flag} chose it. */
    static <T> T listening(String what, String flag, String host, int port, Callable<T> start) throws Exception {
        try {
            return start.call();
        } catch (Exception e) {
            if (port != 0 && isPortInUse(e)) {
                throw new IllegalStateException(what + " cannot listen on " + host + ":" + port
                        + ": another process uses the port (choose another with " + flag + ")", e);
            }
            throw e;
        }
    }

    /** A {@link BindException} anywhere in the causes, or what Netty's native transport says instead of one. */
    static boolean isPortInUse(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof BindException || t.getMessage() != null && t.getMessage().contains("Address already in use")) {
                return true;
            }
            if (t.getCause() == t) {
                break;
            }
        }
        return false;
    }
}
