package org.gridcache.gridftp;

import java.io.EOFException;
import java.io.IOException;
import java.net.ConnectException;
import java.net.NoRouteToHostException;
import java.net.SocketException;
import java.net.SocketTimeoutException;
import java.net.UnknownHostException;
import java.util.Locale;
import org.globus.ftp.exception.ServerException;
import org.globus.ftp.exception.UnexpectedReplyCodeException;
import org.globus.ftp.vanilla.Reply;

/**
 * Sorts GridFTP failures into {@link GridFtpException.Kind}s, the one place that does (the HTTP status follows from the
 * kind). Servers disagree on reply codes, so the text is read too: a 500 saying "permission denied" is a refusal.
 */
final class ReplyClassifier {
    private ReplyClassifier() {
    }

    /** The kind of a negative reply with {@code code} (-1 when unknown) and {@code text}. */
    static GridFtpException.Kind classify(int code, String text, boolean replyTimeout) {
        String lower = text.toLowerCase(Locale.ROOT);
        if (code == 530 || code == 535 || lower.contains("authenticat") || lower.contains("authoriz") || lower.contains("credential")
                || lower.contains("expired") || lower.contains("revoked") || lower.contains("permission denied")) {
            return GridFtpException.Kind.DENIED;
        }
        // before the 550 rule: servers answer most failed writes with 550 (or 500) and say what in the text
        if (code == 452 || code == 552 || lower.contains("no space left") || lower.contains("disk full") || lower.contains("quota")) {
            return GridFtpException.Kind.NO_SPACE;
        }
        if (lower.contains("not empty") || lower.contains("not a directory") || lower.contains("is a directory")) {
            return GridFtpException.Kind.CONFLICT;
        }
        if (lower.contains("file exists") || lower.contains("already exists")) {
            return GridFtpException.Kind.EXISTS;
        }
        if (code == 550 || lower.contains("no such file") || lower.contains("not found") || lower.contains("does not exist")
                || lower.contains("path not allowed")) {
            return GridFtpException.Kind.NOT_FOUND;
        }
        return replyTimeout ? GridFtpException.Kind.UNREACHABLE : GridFtpException.Kind.FAILED;
    }

    /** A negative reply to {@code what} from the server at {@code where}. */
    static GridFtpException failure(String where, String what, ServerException e) {
        Reply reply = reply(e);
        String text = reply != null ? text(reply) : e.getMessage();
        text = text == null ? "no reason given" : oneLine(text);
        boolean timeout = e.getCode() == ServerException.REPLY_TIMEOUT;
        GridFtpException.Kind kind = classify(reply != null ? reply.getCode() : -1, text, timeout);
        if (kind == GridFtpException.Kind.UNREACHABLE && timeout) {
            text = "no reply within the reply timeout";
        }
        return new GridFtpException(kind, "GridFTP server " + where + " refused " + what + ": " + shorten(text), e);
    }

    /**
     * {@code local}, a failure the client side saw first, or the server's own negative reply to the same transfer
     * ({@code serversWord}, read after it) when that says more: a full disk, a refusal. Null: {@code local}.
     */
    static GridFtpException withServersWord(GridFtpException local, String where, String what, Reply serversWord) {
        if (serversWord == null || local.kind() != GridFtpException.Kind.FAILED) {
            return local;
        }
        String text = oneLine(text(serversWord));
        GridFtpException.Kind kind = classify(serversWord.getCode(), text, false);
        return kind == GridFtpException.Kind.FAILED ? local
                : new GridFtpException(kind, "GridFTP server " + where + " refused " + what + ": " + shorten(text), local);
    }

    /**
     * The control channel's last reply ({@code after}) when it is a negative one read since {@code before} (jGlobus
     * keeps the last reply read, whoever read it), else null.
     */
    static Reply newNegativeReply(Reply before, Reply after) {
        return after != null && after != before && after.getCode() >= 400 ? after : null;
    }

    /** The server's reply inside a jGlobus failure, or null when it was not a reply. */
    static Reply reply(ServerException e) {
        Throwable t = e.getRootCause();
        return t instanceof UnexpectedReplyCodeException u ? u.getReply() : null;
    }

    static GridFtpException unreachable(String where, IOException e) {
        String why = e instanceof ConnectException ? "connection refused"
                : e instanceof UnknownHostException ? "unknown host"
                : e instanceof SocketTimeoutException ? "timed out"
                : e instanceof NoRouteToHostException ? "no route to host" : oneLine(e);
        return new GridFtpException(GridFtpException.Kind.UNREACHABLE, "cannot reach GridFTP server " + where + ": " + why, e);
    }

    /** An I/O failure while authenticating: the TLS handshake was refused (a refused credential) or the connection dropped. */
    static GridFtpException authenticationIo(String where, IOException e) {
        if (e instanceof SocketException || e instanceof EOFException) {
            return new GridFtpException(GridFtpException.Kind.UNREACHABLE, "connection to " + where + " broke while authenticating: " + oneLine(e), e);
        }
        return new GridFtpException(GridFtpException.Kind.DENIED, "GridFTP server " + where + " refused the credential: " + oneLine(e), e);
    }

    static GridFtpException asGridFtp(IOException e) {
        return e instanceof GridFtpException g ? g : new GridFtpException(GridFtpException.Kind.FAILED, oneLine(e), e);
    }

    /** Server replies can carry whole Java stack traces (from jGlobus' own data channel code): keep the start. */
    static String shorten(String text) {
        int at = text.indexOf(" at org.");
        String t = at > 0 ? text.substring(0, at) : text;
        return t.length() > 400 ? t.substring(0, 400) + "…" : t;
    }

    static String oneLine(Throwable t) {
        String m = t.getMessage();
        return m == null ? t.getClass().getSimpleName() : oneLine(m);
    }

    /** A multi-line reply, or a message holding one, on one line. */
    private static String oneLine(String text) {
        return text.replaceAll("\\s+", " ").trim();
    }

    private static String text(Reply reply) {
        return reply.getCode() + " " + reply.getMessage();
    }
}
