package org.gridcache.gridftp;

import java.io.IOException;
import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.PrivateKey;
import java.security.cert.X509Certificate;
import java.security.spec.PKCS8EncodedKeySpec;
import org.globus.ftp.DataChannelAuthentication;
import org.globus.ftp.GridFTPClient;
import org.globus.ftp.GridFTPSession;
import org.globus.ftp.Session;
import org.globus.ftp.exception.ServerException;
import org.globus.gsi.X509Credential;
import org.globus.gsi.gssapi.GlobusGSSCredentialImpl;
import org.ietf.jgss.GSSCredential;
import org.ietf.jgss.GSSException;

/**
 * Setting up an authenticated control channel (ARCHITECTURE.md, "Trust model"): connect, GSI authentication with a
 * proxy chain, binary type, and the data channel security the credential allows.
 */
final class GsiControlChannel {
    static final int REPLY_POLL_MILLIS = 10;

    final ControlClient client;
    final String where;
    /** False although asked for when the credential's proxy path length constraint leaves no room (see {@link #open}). */
    final boolean dataChannelAuthentication;

    private GsiControlChannel(ControlClient client, String where, boolean dataChannelAuthentication) {
        this.client = client;
        this.where = where;
        this.dataChannelAuthentication = dataChannelAuthentication;
    }

    static GsiControlChannel open(String host, int port, PrivateKey key, X509Certificate[] chain, GridFtpOptions options)
            throws GridFtpException {
        String where = host + ":" + port;
        ControlClient client;
        try {
            client = new ControlClient(host, port);
        } catch (ServerException e) {
            throw ReplyClassifier.failure(where, "connecting", e);
        } catch (IOException e) {
            throw ReplyClassifier.unreachable(where, e);
        }
        try {
            waitForReplies(client, options);
            // INITIATE_AND_ACCEPT: in MODE E the client accepts the data channels
            GSSCredential credential = new GlobusGSSCredentialImpl(new X509Credential(jdkKey(key), chain), GSSCredential.INITIATE_AND_ACCEPT);
            client.authenticate(credential);
            client.setType(Session.TYPE_IMAGE);
            boolean dcau = options.dataChannelAuthentication();
            if (dcau && ProxyCertInfo.proxiesAllowedBelow(chain) < 1) {
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
            return new GsiControlChannel(client, where, dcau);
        } catch (GSSException | GeneralSecurityException e) {
            closeQuietly(client);
            throw new GridFtpException(GridFtpException.Kind.DENIED, "cannot use the credential for " + where + ": "
                    + ReplyClassifier.oneLine(e), e);
        } catch (ServerException e) {
            closeQuietly(client);
            throw ReplyClassifier.failure(where, "authenticating", e);
        } catch (IOException e) {
            closeQuietly(client);
            throw ReplyClassifier.authenticationIo(where, e);
        } catch (RuntimeException e) {
            closeQuietly(client);
            throw new GridFtpException(GridFtpException.Kind.FAILED, "GridFTP client failed with " + where + ": " + ReplyClassifier.oneLine(e), e);
        }
    }

    /** Command replies wait at most the reply timeout ({@code gridftp.timeout}). */
    static void waitForReplies(GridFTPClient client, GridFtpOptions options) {
        client.setClientWaitParams((int) Math.min(Integer.MAX_VALUE, options.replyTimeout().toMillis()), REPLY_POLL_MILLIS);
    }

    /** jGlobus takes a JDK key; canl's keys come from BouncyCastle's provider (of another version). */
    private static PrivateKey jdkKey(PrivateKey key) throws GeneralSecurityException {
        if (key.getClass().getName().startsWith("sun.")) {
            return key;
        }
        return KeyFactory.getInstance(key.getAlgorithm()).generatePrivate(new PKCS8EncodedKeySpec(key.getEncoded()));
    }

    static void closeQuietly(GridFTPClient client) {
        try {
            client.close(true);
        } catch (IOException | ServerException | RuntimeException ignored) {
            // closing anyway
        }
    }
}
