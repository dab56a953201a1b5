package org.gridcache.gridftp;

import java.io.IOException;
import org.globus.ftp.GridFTPClient;
import org.globus.ftp.exception.FTPReplyParseException;
import org.globus.ftp.exception.ServerException;
import org.globus.ftp.vanilla.Command;
import org.globus.ftp.vanilla.Flag;
import org.globus.ftp.vanilla.Reply;

/**
 * jGlobus' client with what a failed store needs and jGlobus does not offer: reading the replies left over after it,
 * so that the next command (the DELE of the partial file) gets its own reply. When the local side of a transfer fails
 * first, jGlobus stops waiting for the server's reply to it, which then arrives in answer to the next command.
 */
final class ControlClient extends GridFTPClient {
    ControlClient(String host, int port) throws IOException, ServerException {
        super(host, port);
    }

    /**
     * Brings replies back in step after a failed transfer, whose replies (226, 426, 451) not yet read are none or
     * one: sends NOOP and reads until its 200, which no transfer reply is. Each read waits at most the reply timeout.
     * Returns the last negative reply read before the 200 (the server's own word on the transfer), or null.
     */
    Reply resynchronize(int maxReplies, int maxWaitMillis) throws IOException, ServerException {
        controlChannel.write(new Command("NOOP"));
        Reply leftover = null;
        for (int i = 0; i < maxReplies; i++) {
            Reply reply;
            try {
                controlChannel.waitFor(new Flag(), GsiControlChannel.REPLY_POLL_MILLIS, maxWaitMillis);
                reply = controlChannel.read();
            } catch (FTPReplyParseException e) {
                throw ServerException.embedFTPReplyParseException(e);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IOException("interrupted while waiting for the reply to NOOP", e);
            }
            if (reply.getCode() == 200) {
                return leftover;
            }
            if (reply.getCode() >= 400) {
                leftover = reply;
            }
        }
        throw new IOException("no reply to NOOP among " + maxReplies + " replies after an aborted transfer");
    }

    /** Ends what is left of the local side of a transfer (its data channel threads). */
    void abortLocalTransfer() {
        try {
            localServer.abort();
        } catch (IOException | RuntimeException ignored) {
            // the data channel is gone either way
        }
    }
}
