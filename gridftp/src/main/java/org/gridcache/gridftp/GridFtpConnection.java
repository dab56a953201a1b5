package org.gridcache.gridftp;

import java.io.IOException;
import java.io.InputStream;
import java.security.PrivateKey;
import java.security.cert.X509Certificate;
import java.util.ArrayList;
import java.util.List;
import java.util.Vector;
import org.globus.ftp.GridFTPClient;
import org.globus.ftp.GridFTPSession;
import org.globus.ftp.HostPort;
import org.globus.ftp.MlsxEntry;
import org.globus.ftp.RetrieveOptions;
import org.globus.ftp.Session;
import org.globus.ftp.exception.FTPException;
import org.globus.ftp.exception.ServerException;
import org.globus.ftp.vanilla.Reply;

/**
 * One authenticated GridFTP control connection (jGlobus {@link GridFTPClient}), as the holder of a credential (the
 * user's delegated proxy): the operations doors and pools use (ARCHITECTURE.md, "Flows"): reads (stat, list, checksum,
 * retrieve) and writes (store, mkdir, delete, rmdir, rename). Set-up is
 * {@link GsiControlChannel}, failures are sorted by {@link ReplyClassifier}, listings read by {@link MlsxParser},
 * retrieves ordered by {@link ModeEReorderBuffer} and watched by {@link TransferWatchdog}. Not thread-safe: one
 * operation at a time; {@link #close} may be called from any thread and cuts a transfer in progress. Call
 * {@link GridFtp#configure} first.
 */
public final class GridFtpConnection implements AutoCloseable {
    /**
     * Receives a transfer's bytes in file order, without gaps. {@code data} holds them only during the call (a stream-mode
     * read reuses its array): a receiver copies what it keeps.
     */
    public interface Receiver {
        /**
         * Once, before the first byte, or when a transfer of no bytes has been confirmed: the server has agreed to send.
         * Until then it may still refuse (no permission, no data port), and {@link #retrieve} throws its reason instead.
         */
        void started() throws IOException;

        /**
         * The next {@code length} bytes, in order. The array is the reader's, which may reuse it once this returns: keep
         * a copy of what you keep.
         */
        void receive(byte[] data, int length) throws IOException;
    }

    private static final org.slf4j.Logger LOG = org.slf4j.LoggerFactory.getLogger(GridFtpConnection.class);

    final ControlClient client;
    final String where;
    final GridFtpOptions options;
    /** Another connection as the same credential: cleaning up after a failure that cost this one. */
    private final Reopener reopener;
    private final boolean dataChannelAuthentication;
    volatile boolean closed;

    private interface Reopener {
        GridFtpConnection open() throws GridFtpException;
    }

    private GridFtpConnection(GsiControlChannel channel, GridFtpOptions options, Reopener reopener) {
        this.reopener = reopener;
        this.client = channel.client;
        this.where = channel.where;
        this.dataChannelAuthentication = channel.dataChannelAuthentication;
        this.options = options;
    }

    /**
     * Connects to {@code host:port} and authenticates with {@code key} and {@code chain} (a proxy chain, the proxy
     * first). The key may come from any JCA provider: it is re-encoded for jGlobus.
     */
    public static GridFtpConnection open(String host, int port, PrivateKey key, X509Certificate[] chain, GridFtpOptions options)
            throws GridFtpException {
        return new GridFtpConnection(GsiControlChannel.open(host, port, key, chain, options), options,
                () -> open(host, port, key, chain, options));
    }

    /**
     * Whether data channels are authenticated (DCAU A). False although asked for when the credential's proxy path
     * length constraint leaves no room for the proxy the server makes of it, and the data channels are clear anyway.
     */
    public boolean dataChannelAuthentication() {
        return dataChannelAuthentication;
    }

    /** Whether the control connection still answers (NOOP): a connection kept for reuse may have been closed meanwhile. */
    public boolean alive() {
        if (closed) {
            return false;
        }
        try {
            return Reply.isPositiveCompletion(client.quote("NOOP"));
        } catch (IOException | ServerException | RuntimeException e) {
            return false;
        }
    }

    /** MLST: size, mtime and type of one path. */
    public RemoteEntry stat(String path) throws GridFtpException {
        try {
            return MlsxParser.entry(client.mlst(path), MlsxParser.lastSegment(path));
        } catch (ServerException e) {
            throw ReplyClassifier.failure(where, "MLST " + path, e);
        } catch (IOException e) {
            throw broken(e);
        }
    }

    /** MLSD: the entries of a directory, without "." and "..". */
    public List<RemoteEntry> list(String dir) throws GridFtpException {
        prepareListing();
        Vector<?> raw;
        try {
            raw = client.mlsd(dir);
        } catch (ServerException e) {
            throw ReplyClassifier.failure(where, "MLSD " + dir, e);
        } catch (FTPException e) {
            throw new GridFtpException(GridFtpException.Kind.FAILED, "listing " + dir + " at " + where + " failed: "
                    + ReplyClassifier.oneLine(e), e);
        } catch (IOException e) {
            throw broken(e);
        }
        List<RemoteEntry> out = new ArrayList<>();
        for (Object o : raw) {
            MlsxEntry e = (MlsxEntry) o;
            if (!MlsxParser.isSelfOrParent(e)) {
                out.add(MlsxParser.entry(e, MlsxParser.lastSegment(e.getFileName())));
            }
        }
        return out;
    }

    /**
     * CKSM of the whole file with {@code algorithm}, in {@link Checksum#normalize} form; null when the server does
     * not offer that algorithm.
     */
    public String checksum(Checksum algorithm, String path) throws GridFtpException {
        Reply reply;
        try {
            reply = client.quote(ChecksumCommand.command(algorithm, path));
        } catch (ServerException e) {
            GridFtpException f = ReplyClassifier.failure(where, "CKSM " + algorithm + " " + path, e);
            if (ChecksumCommand.notOffered(f.kind(), ReplyClassifier.reply(e))) {
                return null;
            }
            throw f;
        } catch (IOException e) {
            throw broken(e);
        }
        return ChecksumCommand.value(algorithm, reply);
    }

    /**
     * Retrieves {@code length} bytes of {@code path} from {@code offset} into {@code receiver}, in order. A whole
     * file ({@code offset} 0 and {@code length} its size) with one stream goes in stream mode; parallel streams and
     * any partial retrieve (ERET) in MODE E. {@link Receiver#started} comes with the first byte (or the confirmation
     * of an empty transfer), so that a refusal before it is a status, not a cut response. Returns when every byte
     * arrived and the server confirmed the transfer; fewer bytes than asked is a failure.
     */
    public void retrieve(String path, long offset, long length, boolean wholeFile, Receiver receiver) throws GridFtpException {
        ModeEReorderBuffer sink = new ModeEReorderBuffer(offset, receiver);
        // jGlobus's reply wait would end a transfer that lasts longer than the reply timeout (no reply comes until its
        // end): during a retrieve it waits without limit, and the watchdog ends transfers that stop sending instead
        client.setClientWaitParams(Integer.MAX_VALUE, GsiControlChannel.REPLY_POLL_MILLIS);
        TransferWatchdog watchdog = TransferWatchdog.watch(sink::arrived, options.replyTimeout(), () -> {
            LOG.warn("GridFTP server {} sent no data for {} s: closing the transfer", where, options.replyTimeout().toSeconds());
            close();
        });
        try {
            if (wholeFile && options.streams() == 1) {
                client.setMode(Session.MODE_STREAM);
                client.setPassive();
                client.setLocalActive();
                client.get(path, sink, null);
            } else {
                client.setMode(GridFTPSession.MODE_EBLOCK);
                client.setOptions(new RetrieveOptions(options.streams()));
                client.setLocalPassive();
                client.setActive();
                if (wholeFile) {
                    client.extendedGet(path, length, sink, null);
                } else {
                    client.extendedGet(path, offset, length, sink, null);
                }
            }
        } catch (ServerException e) {
            IOException sinkFailure = sink.failure();
            if (sinkFailure != null) {
                throw ReplyClassifier.asGridFtp(sinkFailure);
            }
            throw closed ? cut(watchdog) : ReplyClassifier.failure(where, "RETR " + path, e);
        } catch (FTPException e) {
            throw closed ? cut(watchdog) : new GridFtpException(GridFtpException.Kind.FAILED, "transfer from " + where + " failed: "
                    + ReplyClassifier.oneLine(e), e);
        } catch (IOException e) {
            IOException sinkFailure = sink.failure();
            throw sinkFailure != null ? ReplyClassifier.asGridFtp(sinkFailure) : closed ? cut(watchdog) : broken(e);
        } finally {
            watchdog.stop();
            Thread.interrupted(); // an interrupt the watchdog sent to end a stuck join, if it came late, goes no further
            GsiControlChannel.waitForReplies(client, options);
        }
        IOException sinkFailure = sink.failure();
        if (sinkFailure != null) {
            throw ReplyClassifier.asGridFtp(sinkFailure);
        }
        long got = sink.delivered();
        if (got != length) {
            throw new GridFtpException(GridFtpException.Kind.FAILED, "server " + where + " sent " + got + " of " + length + " bytes of " + path
                    + (sink.pending() > 0 ? " (with a gap)" : ""));
        }
        try {
            sink.confirmed();
        } catch (IOException e) {
            throw ReplyClassifier.asGridFtp(e);
        }
    }

    /**
     * STOR: writes exactly {@code length} bytes from {@code in} to {@code path} (created or truncated), in stream mode
     * with the server passive and the session's DCAU and protection, holding one block in memory at a time. Returns
     * when the server confirmed the transfer. When {@code in} fails, ends before {@code length} bytes or has more (the
     * client went away, or sent more than it announced), the data channel is closed and the partial file deleted
     * (DELE): in stream mode the server takes the closed data channel for the end of the file and keeps it (no ABOR:
     * written while the transfer runs, globus-gridftp-server drops the control connection, and with it the DELE). A
     * transfer that moves nothing for the reply timeout is cut by closing the connection, and its partial file deleted
     * over a new one. After any failed store the connection is closed: jGlobus' side of a failed transfer refuses to start
     * another ("previous transfer not complete"). A file that was at {@code path} before a failed store is gone (STOR
     * truncated it first). Not {@code in}'s owner.
     */
    public void store(String path, InputStream in, long length) throws GridFtpException {
        new StoreTransfer(this).store(path, in, length);
    }

    /** DELE of what a failed transfer left, over a new connection (this one is closed or out of step). */
    void deletePartialFile(String path, GridFtpException failure) {
        try (GridFtpConnection again = reopener.open()) {
            again.delete(path);
            LOG.info("{}; the partial file was deleted", failure.getMessage());
        } catch (GridFtpException e) {
            if (e.kind() != GridFtpException.Kind.NOT_FOUND) {
                LOG.warn("{}; deleting the partial file failed: {}", failure.getMessage(), e.getMessage());
            }
        }
    }

    /** MKD: creates one directory (its parent must exist). */
    public void mkdir(String path) throws GridFtpException {
        command("MKD", path, () -> client.makeDir(path));
    }

    /** DELE: deletes one file. */
    public void delete(String path) throws GridFtpException {
        command("DELE", path, () -> client.deleteFile(path));
    }

    /** RMD: deletes one empty directory. */
    public void rmdir(String path) throws GridFtpException {
        command("RMD", path, () -> client.deleteDir(path));
    }

    /**
     * A third-party transfer: {@code from} on this connection's server to {@code to} on {@code destination}'s (another
     * connection; the same server too), the data going from server to server, never through here. This is the only
     * server-side copy GridFTP has: globus-gridftp-server offers no COPY verb (not in its FEAT or HELP). Stream mode,
     * this server active, the destination passive, the sessions' DCAU and protection (both connections must have been
     * opened with the same options; with DCAU each server authenticates the other with the proxy it made of the
     * user's). No reply comes until the copy ends and no byte passes here, so nothing watches for a stall: the servers'
     * own timeouts, or closing a connection, end one. After a failure both connections are closed (the destination
     * still waits for data, and ABOR makes globus-gridftp-server drop the connection anyway) and the destination's
     * partial file is deleted over a new connection: a file that was at {@code to} before is gone too (STOR truncated
     * it first), so a caller that must keep it on failure checks the source first.
     */
    public void copyTo(String from, GridFtpConnection destination, String to) throws GridFtpException {
        if (destination == this) {
            throw new IllegalArgumentException("a third-party copy needs a second connection");
        }
        client.setClientWaitParams(Integer.MAX_VALUE, GsiControlChannel.REPLY_POLL_MILLIS);
        destination.client.setClientWaitParams(Integer.MAX_VALUE, GsiControlChannel.REPLY_POLL_MILLIS);
        GridFtpException failure = null;
        boolean started = false;
        try {
            client.setMode(Session.MODE_STREAM);
            destination.client.setMode(Session.MODE_STREAM);
            HostPort passive = destination.client.setPassive();
            client.setActive(passive);
            started = true;
            client.transfer(from, destination.client, to, false, null);
        } catch (ServerException e) {
            failure = ReplyClassifier.failure(where + " to " + destination.where, "the copy of " + from + " to " + to, e);
        } catch (FTPException e) {
            failure = new GridFtpException(GridFtpException.Kind.FAILED, "copy from " + where + " to " + destination.where + " failed: "
                    + ReplyClassifier.oneLine(e), e);
        } catch (IOException e) {
            failure = broken(e);
        } finally {
            GsiControlChannel.waitForReplies(client, options);
            GsiControlChannel.waitForReplies(destination.client, destination.options);
        }
        if (failure == null) {
            return;
        }
        destination.close();
        close();
        if (started) {
            destination.deletePartialFile(to, failure);
        }
        throw failure;
    }

    /**
     * RNFR/RNTO within this server. What happens to an existing {@code to} is the server's: globus-gridftp-server
     * renames as POSIX rename(2) does (a file replaces a file, a directory only an empty directory), so a caller that
     * must not overwrite checks first. For a copy see {@link #copyTo}.
     */
    public void rename(String from, String to) throws GridFtpException {
        command("RNFR/RNTO", from + " to " + to, () -> client.rename(from, to));
    }

    private interface ControlCommand {
        void run() throws IOException, ServerException;
    }

    private void command(String verb, String what, ControlCommand command) throws GridFtpException {
        try {
            command.run();
        } catch (ServerException e) {
            throw ReplyClassifier.failure(where, verb + " " + what, e);
        } catch (IOException e) {
            throw broken(e);
        }
    }

    @Override
    public void close() {
        closed = true;
        GsiControlChannel.closeQuietly(client);
    }

    private void prepareListing() throws GridFtpException {
        try {
            client.setMode(Session.MODE_STREAM);
            client.setPassive();
            client.setLocalActive();
        } catch (ServerException e) {
            throw ReplyClassifier.failure(where, "PASV", e);
        } catch (IOException | FTPException e) {
            throw broken(e instanceof IOException io ? io : new IOException(e));
        }
    }

    GridFtpException broken(IOException e) {
        if (closed) {
            return cut();
        }
        if (e instanceof GridFtpException g) {
            return g;
        }
        return new GridFtpException(GridFtpException.Kind.UNREACHABLE, "connection to " + where + " broke: " + ReplyClassifier.oneLine(e), e);
    }

    GridFtpException cut() {
        return new GridFtpException(GridFtpException.Kind.UNREACHABLE, "transfer from " + where + " was cut");
    }

    private GridFtpException cut(TransferWatchdog watchdog) {
        if (watchdog.fired()) {
            return new GridFtpException(GridFtpException.Kind.FAILED, "server " + where + " sent no data for "
                    + options.replyTimeout().toSeconds() + " s (gridftp.timeout): transfer abandoned");
        }
        return cut();
    }
}
