package org.gridcache.gridftp;

import java.io.EOFException;
import java.io.IOException;
import java.net.ConnectException;
import java.net.NoRouteToHostException;
import java.net.SocketException;
import java.net.SocketTimeoutException;
import java.net.UnknownHostException;
import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.PrivateKey;
import java.security.cert.X509Certificate;
import java.security.spec.PKCS8EncodedKeySpec;
import java.util.ArrayList;
import java.util.Date;
import java.util.List;
import java.util.Locale;
import java.util.TreeMap;
import java.util.Vector;
import org.globus.ftp.Buffer;
import org.globus.ftp.DataChannelAuthentication;
import org.globus.ftp.DataSink;
import org.globus.ftp.GridFTPClient;
import org.globus.ftp.GridFTPSession;
import org.globus.ftp.MlsxEntry;
import org.globus.ftp.RetrieveOptions;
import org.globus.ftp.Session;
import org.globus.ftp.exception.FTPException;
import org.globus.ftp.exception.ServerException;
import org.globus.ftp.exception.UnexpectedReplyCodeException;
import org.globus.ftp.vanilla.Reply;
import org.globus.gsi.X509Credential;
import org.globus.gsi.gssapi.GlobusGSSCredentialImpl;
import org.ietf.jgss.GSSCredential;
import org.ietf.jgss.GSSException;

/**
 * One authenticated GridFTP control connection (jGlobus {@link GridFTPClient}), as the holder of a credential (the
 * user's delegated proxy). Not thread-safe: one operation at a time; {@link #close} may be called from any thread
 * and cuts a transfer in progress. Call {@link GridFtp#configure} first.
 */
public final class GridFtpConnection implements AutoCloseable {
    /** Receives a transfer's bytes in file order, without gaps; {@code data} is the receiver's to keep. */
    public interface Receiver {
        void receive(byte[] data, int length) throws IOException;
    }

    /** How many bytes received out of order (parallel streams) may wait for the gap before them: then streams pause. */
    static final long MAX_REORDER_BYTES = 64L << 20;
    private static final org.slf4j.Logger LOG = org.slf4j.LoggerFactory.getLogger(GridFtpConnection.class);
    private static final int REPLY_POLL_MILLIS = 10;
    private static final java.util.concurrent.ScheduledExecutorService WATCHDOGS = java.util.concurrent.Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "gridftp-watchdog");
        t.setDaemon(true);
        return t;
    });

    private final GridFTPClient client;
    private final String where;
    private final GridFtpOptions options;
    private volatile boolean closed;
    private boolean dataChannelAuthentication;

    private GridFtpConnection(GridFTPClient client, String where, GridFtpOptions options) {
        this.client = client;
        this.where = where;
        this.options = options;
    }

    /**
     * Connects to {@code host:port} and authenticates with {@code key} and {@code chain} (a proxy chain, the proxy
     * first). The key may come from any JCA provider: it is re-encoded for jGlobus.
     */
    public static GridFtpConnection open(String host, int port, PrivateKey key, X509Certificate[] chain, GridFtpOptions options)
            throws GridFtpException {
        String where = host + ":" + port;
        GridFTPClient client;
        try {
            client = new GridFTPClient(host, port);
        } catch (ServerException e) {
            throw failure(where, "connecting", e);
        } catch (IOException e) {
            throw unreachable(where, e);
        }
        try {
            client.setClientWaitParams((int) Math.min(Integer.MAX_VALUE, options.replyTimeout().toMillis()), REPLY_POLL_MILLIS);
            GSSCredential credential = new GlobusGSSCredentialImpl(new X509Credential(jdkKey(key), chain), GSSCredential.INITIATE_AND_ACCEPT /* MODE E: the client accepts the data channels */);
            client.authenticate(credential);
            client.setType(Session.TYPE_IMAGE);
            boolean dcau = options.dataChannelAuthentication();
            if (dcau && proxiesAllowedBelow(chain) < 1) {
                // the server authenticates data channels with a proxy it makes of ours (delegated at AUTH): a chain
                // whose path length constraint allows no further proxy cannot do that (jGlobus refuses the chain)
                if (options.protection() != GridFtpOptions.Protection.CLEAR) {
                    closeQuietly(client);
                    throw new GridFtpException(GridFtpException.Kind.DENIED, "the credential's proxy path length constraint leaves no room "
                            + "for the proxy " + where + " needs to authenticate protected data channels (DCAU): delegate a proxy "
                            + "without that constraint, or use clear data channels");
                }
                dcau = false;
            }
            if (dcau) {
                client.setDataChannelAuthentication(DataChannelAuthentication.SELF);
                client.setDataChannelProtection(switch (options.protection()) {
                    case CLEAR -> GridFTPSession.PROTECTION_CLEAR;
                    case SAFE -> GridFTPSession.PROTECTION_SAFE;
                    case PRIVATE -> GridFTPSession.PROTECTION_PRIVATE;
                });
            } else {
                client.setDataChannelAuthentication(DataChannelAuthentication.NONE);
                client.setLocalNoDataChannelAuthentication();
            }
            GridFtpConnection c = new GridFtpConnection(client, where, options);
            c.dataChannelAuthentication = dcau;
            return c;
        } catch (GSSException | GeneralSecurityException e) {
            closeQuietly(client);
            throw new GridFtpException(GridFtpException.Kind.DENIED, "cannot use the credential for " + where + ": " + oneLine(e), e);
        } catch (ServerException e) {
            closeQuietly(client);
            throw failure(where, "authenticating", e);
        } catch (IOException e) {
            closeQuietly(client);
            throw authenticationIo(where, e);
        } catch (RuntimeException e) {
            closeQuietly(client);
            throw new GridFtpException(GridFtpException.Kind.FAILED, "GridFTP client failed with " + where + ": " + oneLine(e), e);
        }
    }

    /**
     * Whether data channels are authenticated (DCAU A). False although asked for when the credential's proxy path
     * length constraint leaves no room for the proxy the server makes of it, and the data channels are clear anyway.
     */
    public boolean dataChannelAuthentication() {
        return dataChannelAuthentication;
    }

    /**
     * How many more proxies may be signed below the chain's first certificate: the least, over its proxy
     * certificates, of their path length constraint (RFC 3820 ProxyCertInfo, or the pre-RFC Globus OID) less the
     * proxies already below them; {@link Integer#MAX_VALUE} when none constrains.
     */
    static int proxiesAllowedBelow(X509Certificate[] chain) {
        int allowed = Integer.MAX_VALUE;
        for (int i = 0; i < chain.length; i++) {
            byte[] ext = chain[i].getExtensionValue("1.3.6.1.5.5.7.1.14");
            if (ext == null) {
                ext = chain[i].getExtensionValue("1.3.6.1.4.1.3536.1.222");
            }
            if (ext == null) {
                continue;
            }
            int pathLen = pathLenConstraint(ext);
            if (pathLen >= 0) {
                allowed = Math.min(allowed, pathLen - i);
            }
        }
        return allowed;
    }

    /** The pCPathLenConstraint of a DER ProxyCertInfo wrapped in its extension OCTET STRING; -1 when absent. */
    static int pathLenConstraint(byte[] der) {
        try {
            int[] pos = {0};
            if (der[pos[0]++] != 0x04) {
                return -1;
            }
            length(der, pos);
            if (der[pos[0]++] != 0x30) {
                return -1;
            }
            length(der, pos);
            if (der[pos[0]] != 0x02) {
                return -1; // no INTEGER first: unconstrained
            }
            pos[0]++;
            int n = length(der, pos);
            long v = 0;
            for (int k = 0; k < n; k++) {
                v = (v << 8) | (der[pos[0]++] & 0xff);
            }
            return (int) Math.min(Integer.MAX_VALUE, v);
        } catch (RuntimeException e) {
            return -1;
        }
    }

    private static int length(byte[] der, int[] pos) {
        int b = der[pos[0]++] & 0xff;
        if (b < 0x80) {
            return b;
        }
        int n = b & 0x7f;
        int len = 0;
        for (int k = 0; k < n; k++) {
            len = (len << 8) | (der[pos[0]++] & 0xff);
        }
        return len;
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
            return entry(client.mlst(path), lastSegment(path));
        } catch (ServerException e) {
            throw failure(where, "MLST " + path, e);
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
            throw failure(where, "MLSD " + dir, e);
        } catch (FTPException e) {
            throw new GridFtpException(GridFtpException.Kind.FAILED, "listing " + dir + " at " + where + " failed: " + oneLine(e), e);
        } catch (IOException e) {
            throw broken(e);
        }
        List<RemoteEntry> out = new ArrayList<>();
        for (Object o : raw) {
            MlsxEntry e = (MlsxEntry) o;
            String type = e.get(MlsxEntry.TYPE);
            String name = e.getFileName();
            if (name == null || MlsxEntry.TYPE_CDIR.equals(type) || MlsxEntry.TYPE_PDIR.equals(type) || name.equals(".") || name.equals("..")) {
                continue;
            }
            out.add(entry(e, lastSegment(name)));
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
            reply = client.quote("CKSM " + algorithm.name() + " 0 -1 " + path);
        } catch (ServerException e) {
            GridFtpException f = failure(where, "CKSM " + algorithm + " " + path, e);
            Reply r = reply(e);
            if (f.kind() == GridFtpException.Kind.FAILED && r != null && (r.getCode() == 500 || r.getCode() == 501 || r.getCode() == 502
                    || r.getCode() == 504) && r.getMessage() != null && !r.getMessage().toLowerCase(Locale.ROOT).contains("no such")) {
                return null; // not offered (or not for this algorithm)
            }
            throw f;
        } catch (IOException e) {
            throw broken(e);
        }
        if (!Reply.isPositiveCompletion(reply) || reply.getMessage() == null || reply.getMessage().isBlank()) {
            return null;
        }
        return algorithm.normalize(reply.getMessage().trim().split("\\s+")[0]);
    }

    /**
     * Retrieves {@code length} bytes of {@code path} from {@code offset} into {@code receiver}, in order. A whole
     * file ({@code offset} 0 and {@code length} its size) with one stream goes in stream mode; parallel streams and
     * any partial retrieve (ERET) in MODE E. Returns when every byte arrived and the server confirmed the transfer;
     * fewer bytes than asked is a failure.
     */
    public void retrieve(String path, long offset, long length, boolean wholeFile, Receiver receiver) throws GridFtpException {
        InOrderSink sink = new InOrderSink(offset, receiver);
        // jGlobus's reply wait would end a transfer that lasts longer than the reply timeout (no reply comes until its
        // end): during a retrieve it waits without limit, and the watchdog ends transfers that stop sending instead
        client.setClientWaitParams(Integer.MAX_VALUE, REPLY_POLL_MILLIS);
        Watchdog watchdog = new Watchdog(sink);
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
                throw asGridFtp(sinkFailure);
            }
            throw closed ? cut(watchdog) : failure(where, "RETR " + path, e);
        } catch (FTPException e) {
            throw closed ? cut(watchdog) : new GridFtpException(GridFtpException.Kind.FAILED, "transfer from " + where + " failed: " + oneLine(e), e);
        } catch (IOException e) {
            IOException sinkFailure = sink.failure();
            throw sinkFailure != null ? asGridFtp(sinkFailure) : closed ? cut(watchdog) : broken(e);
        } finally {
            watchdog.stop();
            client.setClientWaitParams((int) Math.min(Integer.MAX_VALUE, options.replyTimeout().toMillis()), REPLY_POLL_MILLIS);
        }
        IOException sinkFailure = sink.failure();
        if (sinkFailure != null) {
            throw asGridFtp(sinkFailure);
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
        closeQuietly(client);
    }

    // --- helpers ---

    private void prepareListing() throws GridFtpException {
        try {
            client.setMode(Session.MODE_STREAM);
            client.setPassive();
            client.setLocalActive();
        } catch (ServerException e) {
            throw failure(where, "PASV", e);
        } catch (IOException | FTPException e) {
            throw broken(e instanceof IOException io ? io : new IOException(e));
        }
    }

    private static RemoteEntry entry(MlsxEntry e, String name) {
        String type = e.get(MlsxEntry.TYPE);
        boolean dir = MlsxEntry.TYPE_DIR.equals(type) || MlsxEntry.TYPE_CDIR.equals(type) || MlsxEntry.TYPE_PDIR.equals(type);
        long size = -1;
        String s = e.get(MlsxEntry.SIZE);
        if (s != null && !dir) {
            try {
                size = Long.parseLong(s.trim());
            } catch (NumberFormatException ignored) {
                size = -1;
            }
        }
        long mtime = -1;
        String modify = e.get(MlsxEntry.MODIFY);
        if (modify != null) {
            mtime = parseModify(modify);
        }
        return new RemoteEntry(name, dir, size, mtime);
    }

    /** MLSx "modify" facts are YYYYMMDDHHMMSS[.sss] in UTC (RFC 3659). */
    static long parseModify(String value) {
        String v = value.trim();
        if (v.length() < 14) {
            return -1;
        }
        try {
            java.time.LocalDateTime t = java.time.LocalDateTime.of(Integer.parseInt(v.substring(0, 4)), Integer.parseInt(v.substring(4, 6)),
                    Integer.parseInt(v.substring(6, 8)), Integer.parseInt(v.substring(8, 10)), Integer.parseInt(v.substring(10, 12)),
                    Integer.parseInt(v.substring(12, 14)));
            long millis = t.toInstant(java.time.ZoneOffset.UTC).toEpochMilli();
            if (v.length() > 15 && v.charAt(14) == '.') {
                String frac = (v.substring(15) + "000").substring(0, 3);
                millis += Integer.parseInt(frac);
            }
            return millis;
        } catch (RuntimeException e) {
            return -1;
        }
    }

    private static String lastSegment(String path) {
        String p = path.endsWith("/") && path.length() > 1 ? path.substring(0, path.length() - 1) : path;
        int slash = p.lastIndexOf('/');
        return slash < 0 ? p : p.substring(slash + 1);
    }

    /** jGlobus takes a JDK key; canl's keys come from BouncyCastle's provider (of another version). */
    private static PrivateKey jdkKey(PrivateKey key) throws GeneralSecurityException {
        if (key.getClass().getName().startsWith("sun.")) {
            return key;
        }
        return KeyFactory.getInstance(key.getAlgorithm()).generatePrivate(new PKCS8EncodedKeySpec(key.getEncoded()));
    }

    private GridFtpException broken(IOException e) {
        if (closed) {
            return cut();
        }
        if (e instanceof GridFtpException g) {
            return g;
        }
        return new GridFtpException(GridFtpException.Kind.UNREACHABLE, "connection to " + where + " broke: " + oneLine(e), e);
    }

    private GridFtpException cut() {
        return new GridFtpException(GridFtpException.Kind.UNREACHABLE, "transfer from " + where + " was cut");
    }

    private GridFtpException cut(Watchdog watchdog) {
        if (watchdog.fired()) {
            return new GridFtpException(GridFtpException.Kind.FAILED, "server " + where + " sent no data for "
                    + options.replyTimeout().toSeconds() + " s (gridftp.timeout): transfer abandoned");
        }
        return cut();
    }

    /**
     * Closes the connection when a transfer receives nothing for {@code replyTimeout}: jGlobus waits for the server's
     * final reply without a limit, and a server that stalls (alive, sending nothing) would hold the fetch, and every
     * client waiting on it, forever. A pause of the pool's own making (its write-behind memory full) also counts: the
     * fetcher gives up on those after the same time.
     */
    private final class Watchdog implements Runnable {
        private final InOrderSink sink;
        private final java.util.concurrent.ScheduledFuture<?> task;
        private final long limitNanos = options.replyTimeout().toNanos();
        private long lastProgress = -1;
        private long since = System.nanoTime();
        private volatile boolean fired;

        Watchdog(InOrderSink sink) {
            this.sink = sink;
            long period = Math.max(100, Math.min(1000, options.replyTimeout().toMillis() / 4));
            this.task = WATCHDOGS.scheduleWithFixedDelay(this, period, period, java.util.concurrent.TimeUnit.MILLISECONDS);
        }

        @Override
        public void run() {
            long progress = sink.arrived();
            long now = System.nanoTime();
            if (progress != lastProgress) {
                lastProgress = progress;
                since = now;
            } else if (now - since > limitNanos && !fired) {
                fired = true;
                LOG.warn("GridFTP server {} sent no data for {} s: closing the transfer", where, options.replyTimeout().toSeconds());
                close();
            }
        }

        boolean fired() {
            return fired;
        }

        void stop() {
            task.cancel(false);
        }
    }

    private static GridFtpException asGridFtp(IOException e) {
        return e instanceof GridFtpException g ? g : new GridFtpException(GridFtpException.Kind.FAILED, oneLine(e), e);
    }

    private static GridFtpException unreachable(String where, IOException e) {
        String why = e instanceof ConnectException ? "connection refused"
                : e instanceof UnknownHostException ? "unknown host"
                : e instanceof SocketTimeoutException ? "timed out"
                : e instanceof NoRouteToHostException ? "no route to host" : oneLine(e);
        return new GridFtpException(GridFtpException.Kind.UNREACHABLE, "cannot reach GridFTP server " + where + ": " + why, e);
    }

    /** An I/O failure while authenticating: the TLS handshake was refused (a refused credential) or the connection dropped. */
    private static GridFtpException authenticationIo(String where, IOException e) {
        if (e instanceof SocketException || e instanceof EOFException) {
            return new GridFtpException(GridFtpException.Kind.UNREACHABLE, "connection to " + where + " broke while authenticating: " + oneLine(e), e);
        }
        return new GridFtpException(GridFtpException.Kind.DENIED, "GridFTP server " + where + " refused the credential: " + oneLine(e), e);
    }

    /** A negative reply: sorted by its code and text. */
    static GridFtpException failure(String where, String what, ServerException e) {
        Reply reply = reply(e);
        String text = reply != null ? reply.getCode() + " " + reply.getMessage() : e.getMessage();
        text = text == null ? "no reason given" : text.replaceAll("\\s+", " ").trim();
        int code = reply != null ? reply.getCode() : -1;
        String lower = text.toLowerCase(Locale.ROOT);
        GridFtpException.Kind kind;
        if (code == 530 || code == 535 || lower.contains("authenticat") || lower.contains("authoriz") || lower.contains("credential")
                || lower.contains("expired") || lower.contains("revoked") || lower.contains("permission denied")) {
            kind = GridFtpException.Kind.DENIED;
        } else if (code == 550 || lower.contains("no such file") || lower.contains("not found") || lower.contains("does not exist")
                || lower.contains("path not allowed")) {
            kind = GridFtpException.Kind.NOT_FOUND;
        } else if (e.getCode() == ServerException.REPLY_TIMEOUT) {
            kind = GridFtpException.Kind.UNREACHABLE;
            text = "no reply within " + "the reply timeout";
        } else {
            kind = GridFtpException.Kind.FAILED;
        }
        return new GridFtpException(kind, "GridFTP server " + where + " refused " + what + ": " + shorten(text), e);
    }

    private static Reply reply(ServerException e) {
        Throwable t = e.getRootCause();
        if (t instanceof UnexpectedReplyCodeException u) {
            return u.getReply();
        }
        return null;
    }

    /** Server replies can carry whole Java stack traces (from jGlobus' own data channel code): keep the start. */
    static String shorten(String text) {
        int at = text.indexOf(" at org.");
        String t = at > 0 ? text.substring(0, at) : text;
        return t.length() > 400 ? t.substring(0, 400) + "…" : t;
    }

    static String oneLine(Throwable t) {
        String m = t.getMessage();
        if (m == null) {
            return t.getClass().getSimpleName();
        }
        return m.replaceAll("\\s+", " ").trim();
    }

    private static void closeQuietly(GridFTPClient client) {
        try {
            client.close(true);
        } catch (IOException | ServerException | RuntimeException ignored) {
            // closing anyway
        }
    }

    /**
     * jGlobus' data sink: stream mode delivers in order (offset -1 or increasing); MODE E streams deliver blocks
     * at file offsets in any order. Blocks past a gap wait here until it is filled, pausing their stream when more
     * than {@link #MAX_REORDER_BYTES} wait (the gap's block is already on its way on another stream, since the
     * server sends blocks in file order).
     */
    static final class InOrderSink implements DataSink {
        private final long start;
        private final Receiver receiver;
        private final TreeMap<Long, byte[]> waiting = new TreeMap<>();
        private long next;
        private long streamPosition;
        private long waitingBytes;
        private volatile long arrived;
        private IOException failure;
        /** ERET offsets: relative to the retrieve's start or absolute; decided by the first block seen. */
        private Boolean absolute;

        InOrderSink(long start, Receiver receiver) {
            this.start = start;
            this.receiver = receiver;
            this.next = start;
            this.streamPosition = start;
        }

        @Override
        public synchronized void write(Buffer buffer) throws IOException {
            if (failure != null) {
                throw failure;
            }
            int length = buffer.getLength();
            if (length <= 0) {
                return;
            }
            arrived += length;
            long offset = buffer.getOffset();
            if (offset < 0) {
                offset = streamPosition; // stream mode: in order
            } else {
                if (absolute == null) {
                    absolute = start == 0 || offset >= start;
                }
                if (!absolute) {
                    offset += start;
                }
            }
            streamPosition = offset + length;
            byte[] copy = new byte[length];
            System.arraycopy(buffer.getBuffer(), 0, copy, 0, length);
            try {
                if (offset == next) {
                    deliver(copy);
                    for (var head = waiting.firstEntry(); head != null && head.getKey() == next; head = waiting.firstEntry()) {
                        waiting.pollFirstEntry();
                        waitingBytes -= head.getValue().length;
                        deliver(head.getValue());
                    }
                    notifyAll();
                } else if (offset > next) {
                    waiting.put(offset, copy);
                    waitingBytes += length;
                    while (waitingBytes > MAX_REORDER_BYTES && waiting.containsKey(offset) && failure == null) {
                        wait();
                    }
                } else {
                    throw new IOException("server sent bytes at " + offset + " twice");
                }
            } catch (IOException e) {
                failure = e;
                notifyAll();
                throw e;
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                failure = new IOException("interrupted");
                notifyAll();
                throw failure;
            }
        }

        private void deliver(byte[] data) throws IOException {
            receiver.receive(data, data.length);
            next += data.length;
        }

        synchronized long delivered() {
            return next - start;
        }

        synchronized long pending() {
            return waitingBytes;
        }

        /**
         * Bytes received from the server so far: what tells the watchdog that it still sends. Not synchronized: a
         * writer may hold this sink's lock while the pool's write-behind memory is full, and the watchdogs share one
         * thread.
         */
        long arrived() {
            return arrived;
        }

        synchronized IOException failure() {
            return failure;
        }

        @Override
        public void close() {
            // the transfer's end is confirmed by the server's reply, not by this
        }
    }
}
