package org.gridcache.gridftp;

import java.io.IOException;
import java.security.PrivateKey;
import java.security.cert.X509Certificate;
import java.util.ArrayList;
import java.util.List;
import java.util.Vector;
import org.globus.ftp.GridFTPClient;
import org.globus.ftp.GridFTPSession;
import org.globus.ftp.MlsxEntry;
import org.globus.ftp.RetrieveOptions;
import org.globus.ftp.Session;
import org.globus.ftp.exception.FTPException;
import org.globus.ftp.exception.ServerException;
import org.globus.ftp.vanilla.Reply;

/**
 * One authenticated GridFTP control connection (jGlobus {@link GridFTPClient}), as the holder of a credential (the
 * user's delegated proxy): the operations doors and pools use (ARCHITECTURE.md, "Flows"). Set-up is
 * {@link GsiControlChannel}, failures are sorted by {@link ReplyClassifier}, listings read by {@link MlsxParser},
 * retrieves ordered by {@link ModeEReorderBuffer} and watched by {@link TransferWatchdog}. Not thread-safe: one
 * operation at a time; {@link #close} may be called from any thread and cuts a transfer in progress. Call
 * {@link GridFtp#configure} first.
 */
public final class GridFtpConnection implements AutoCloseable {
    /** Receives a transfer's bytes in file order, without gaps; {@code data} is the receiver's to keep. */
    public interface Receiver {
        void receive(byte[] data, int length) throws IOException;
    }

    private static final org.slf4j.Logger LOG = org.slf4j.LoggerFactory.getLogger(GridFtpConnection.class);

    private final GridFTPClient client;
    private final String where;
    private final GridFtpOptions options;
    private final boolean dataChannelAuthentication;
    private volatile boolean closed;

    private GridFtpConnection(GsiControlChannel channel, GridFtpOptions options) {
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
        return new GridFtpConnection(GsiControlChannel.open(host, port, key, chain, options), options);
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
     * any partial retrieve (ERET) in MODE E. Returns when every byte arrived and the server confirmed the transfer;
     * fewer bytes than asked is a failure.
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

    private GridFtpException broken(IOException e) {
        if (closed) {
            return cut();
        }
        if (e instanceof GridFtpException g) {
            return g;
        }
        return new GridFtpException(GridFtpException.Kind.UNREACHABLE, "connection to " + where + " broke: " + ReplyClassifier.oneLine(e), e);
    }

    private GridFtpException cut() {
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
