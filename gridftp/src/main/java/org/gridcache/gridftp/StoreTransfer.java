package org.gridcache.gridftp;

import java.io.IOException;
import java.io.InputStream;
import org.globus.ftp.Session;
import org.globus.ftp.exception.FTPException;
import org.globus.ftp.exception.ServerException;
import org.globus.ftp.vanilla.Reply;

/**
 * One STOR over a {@link GridFtpConnection} ({@link GridFtpConnection#store}, which says what it promises), and the
 * clean-up after a failed one: the replies back in step, the partial file deleted, the server's own reason found.
 */
final class StoreTransfer {
    private static final org.slf4j.Logger LOG = org.slf4j.LoggerFactory.getLogger(StoreTransfer.class);
    private final GridFtpConnection connection;
    private final ControlClient client;
    private final String where;
    private final GridFtpOptions options;

    StoreTransfer(GridFtpConnection connection) {
        this.connection = connection;
        this.client = connection.client;
        this.where = connection.where;
        this.options = connection.options;
    }

    void store(String path, InputStream in, long length) throws GridFtpException {
        UploadSource source = new UploadSource(in, length);
        client.setClientWaitParams(Integer.MAX_VALUE, GsiControlChannel.REPLY_POLL_MILLIS);
        TransferWatchdog watchdog = TransferWatchdog.watch(source::sent, options.replyTimeout(), () -> {
            LOG.warn("upload to GridFTP server {} moved no data for {} s: closing the transfer", where, options.replyTimeout().toSeconds());
            connection.close();
        });
        GridFtpException failure = null;
        Reply lastBefore = client.getLastReply();
        try {
            client.setMode(Session.MODE_STREAM);
            client.setPassive();
            client.setLocalActive();
            lastBefore = client.getLastReply();
            client.put(path, source, null);
        } catch (ServerException e) {
            failure = ReplyClassifier.failure(where, "STOR " + path, e);
        } catch (FTPException e) {
            failure = new GridFtpException(GridFtpException.Kind.FAILED, "transfer to " + where + " failed: " + ReplyClassifier.oneLine(e), e);
        } catch (IOException e) {
            failure = connection.broken(e);
        } finally {
            watchdog.stop();
            Thread.interrupted(); // an interrupt the watchdog sent to end a stuck join, if it came late, goes no further
            GsiControlChannel.waitForReplies(client, options);
        }
        // jGlobus keeps a transfer's first failure only: when its local side failed first (the server reset the data
        // channel on a full disk), the server's own reply may have been read already by its transfer monitor, and lost
        Reply readByTheTransfer = ReplyClassifier.newNegativeReply(lastBefore, client.getLastReply());
        IOException sourceFailure = source.failure();
        if (failure == null && sourceFailure == null) {
            return;
        }
        if (connection.closed && !watchdog.fired()) {
            throw connection.cut();
        }
        if (connection.closed) {
            failure = new GridFtpException(GridFtpException.Kind.FAILED, "upload of " + path + " to " + where + " moved no data for "
                    + options.replyTimeout().toSeconds() + " s (gridftp.timeout): abandoned");
            connection.deletePartialFile(path, failure);
            throw failure;
        }
        if (sourceFailure != null) {
            // the server took the connection.closed data channel for the end of the file (226): the reason is the stream's
            failure = new GridFtpException(GridFtpException.Kind.FAILED, "upload of " + path + " to " + where + " abandoned: "
                    + ReplyClassifier.oneLine(sourceFailure), sourceFailure);
        }
        Reply serversWord = cleanUpAfterFailedStore(path, failure, sourceFailure != null || source.sent() > 0);
        if (serversWord == null) {
            serversWord = readByTheTransfer;
        }
        connection.close();
        throw ReplyClassifier.withServersWord(failure, where, "STOR " + path, serversWord);
    }

    /**
     * After a failed STOR: the replies back in step (the transfer's reply may not have been read), and the partial file
     * deleted when the transfer had begun (a STOR refused at once made none). Returns the server's negative reply to
     * the transfer when it was read only now, or null: when the local side failed first (the server connection.closed the data
     * channel, say on a full disk), jGlobus reports that local failure and leaves the server's reason unread.
     */
    private Reply cleanUpAfterFailedStore(String path, GridFtpException failure, boolean partialFile) {
        client.abortLocalTransfer();
        Reply serversWord;
        try {
            serversWord = client.resynchronize(4, (int) Math.min(Integer.MAX_VALUE, options.replyTimeout().toMillis()));
        } catch (IOException | ServerException e) {
            LOG.warn("{}; the connection is out of step after the failed transfer ({})", failure.getMessage(), ReplyClassifier.oneLine(e));
            connection.close();
            if (partialFile) {
                connection.deletePartialFile(path, failure);
            }
            return null;
        }
        if (!partialFile) {
            return serversWord;
        }
        try {
            client.deleteFile(path);
            LOG.info("{}; the partial file was deleted", failure.getMessage());
        } catch (ServerException e) {
            LOG.warn("{}; deleting the partial file failed: {}", failure.getMessage(), ReplyClassifier.failure(where, "DELE " + path, e).getMessage());
        } catch (IOException e) {
            LOG.warn("{}; deleting the partial file failed: {}", failure.getMessage(), ReplyClassifier.oneLine(e));
        }
        return serversWord;
    }
}
