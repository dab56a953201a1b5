package org.gridcache.pool.tpc;

import eu.emi.security.authn.x509.X509Credential;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;
import org.gridcache.common.net.AllowedHosts;
import org.gridcache.pool.http.PoolClient;

/**
 * How a pool reaches a third-party copy's remote side: the pool's own HTTP client ({@link PoolClient}, its event
 * loops), with connections of the copy's own ({@link #open}), closed when the copy ends, so that a connection never
 * carries two copies (nor two users' credentials: a remote such as XRootD keeps the identity a connection first
 * authenticated). Every connection, the first and each redirect's, goes to an address this class resolved and
 * checked itself ({@link #addresses}): an address in an internal range (loopback, link-local, private, unique-local,
 * multicast, metadata) only when {@code tpc.allowed-hosts} lists it, so a name cannot resolve to another address
 * between the check and the connect. TLS checks the remote's chain against the CA directory when the pool has one
 * (else the JDK's trust store) and its host name; the user's proxy is presented for {@code Credential: gridsite},
 * nothing otherwise.
 */
final class RemoteHttp {
    static final Duration CONNECT_TIMEOUT = Duration.ofSeconds(30);
    /** How long a remote may send nothing on a connection the copy uses (a header's wait included). */
    static final Duration IDLE_TIMEOUT = Duration.ofMinutes(10);
    private final PoolClient client;
    private final Supplier<AllowedHosts> allowed;

    /** {@code client}: the pool's, with the TLS it presents; {@code allowed}: {@code tpc.allowed-hosts} now. */
    RemoteHttp(PoolClient client, Supplier<AllowedHosts> allowed) {
        this.client = client;
        this.allowed = allowed;
    }

    /** The connections of one copy, presenting {@code credential} (null: nothing); close it when the copy ends. */
    RemoteSession open(X509Credential credential) {
        return new RemoteSession(client, credential == null ? client.anonymous() : client.presenting(credential), allowed.get());
    }

    /**
     * Resolves a remote's {@code host} once (on the copy's thread: a lookup blocks) and keeps the addresses
     * {@code allowedHosts} allows; none left: the copy fails with the reason.
     */
    static List<InetSocketAddress> addresses(AllowedHosts allowedHosts, String host, int port)
            throws UnknownHostException, CopyFailure {
        InetAddress[] all;
        try {
            all = InetAddress.getAllByName(host);
        } catch (UnknownHostException e) {
            throw new UnknownHostException("cannot resolve " + host);
        }
        List<InetSocketAddress> usable = new ArrayList<>();
        String refusal = null;
        for (InetAddress address : all) {
            String why = allowedHosts.refusal(host, address);
            if (why == null) {
                usable.add(new InetSocketAddress(address, port));
            } else if (refusal == null) {
                refusal = why;
            }
        }
        if (usable.isEmpty()) {
            throw new CopyFailure(refusal);
        }
        return usable;
    }
}
