package org.gridcache.door.tpc;

import jakarta.servlet.http.HttpServletRequest;
import java.net.InetAddress;
import java.net.URI;
import java.net.URISyntaxException;
import java.util.Locale;
import org.gridcache.common.ticket.Ticket;
import org.gridcache.common.net.AllowedHosts;
import org.gridcache.common.net.Cidr;
import org.gridcache.common.security.GridSubject;
import org.gridcache.door.exchange.DoorException;
import org.gridcache.door.write.Destination;

/**
 * A COPY read as a WLCG HTTP third-party copy: {@code Source: <url>} is a pull into the request's path, a
 * {@code Destination} that is an absolute http(s) URL of another server a push of it. {@code Credential} names what
 * the pool presents to the remote side: {@code none}, or {@code gridsite} (a proxy of the user's delegation). Absent,
 * it is {@code gridsite} for a client that authenticated with a certificate and passes no
 * {@code TransferHeaderAuthorization} (a token for the remote says how the remote is to be accessed), else
 * {@code none}: dCache's rule, which is what gfal2 and FTS expect of a dCache-like endpoint.
 */
record CopyRequest(Kind kind, String remote, String credential) {
    enum Kind { PULL, PUSH }

    static final String SOURCE = "Source";
    static final String CREDENTIAL = "Credential";
    static final String TRANSFER_AUTHORIZATION = "TransferHeaderAuthorization";

    /** Whether {@code request} (a COPY) is a third-party copy: a Source, or a Destination on another server. */
    static boolean isThirdParty(HttpServletRequest request) {
        if (request.getHeader(SOURCE) != null) {
            return true;
        }
        String destination = request.getHeader("Destination");
        if (destination == null) {
            return false;
        }
        try {
            URI uri = new URI(destination.trim());
            String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
            return (scheme.equals("http") || scheme.equals("https")) && !Destination.namesThisDoor(request, uri);
        } catch (URISyntaxException e) {
            return false; // the namespace COPY answers its 400
        }
    }

    /**
     * The copy {@code request} of {@code subject} asks for; a 400 with the reason for a bad remote URL or credential,
     * a 403 for {@code Credential: gridsite} asked by a bearer token's subject, which has no delegation to present, or by a
     * macaroon's that was not minted with {@code credential:gridsite}.
     */
    static CopyRequest of(HttpServletRequest request, GridSubject subject) {
        String source = request.getHeader(SOURCE);
        Kind kind = source != null ? Kind.PULL : Kind.PUSH;
        if (source != null && request.getHeader("Destination") != null) {
            throw new DoorException(400, "a third-party COPY names either a Source (pull) or a Destination (push), not both");
        }
        String remote = remoteUrl(kind == Kind.PULL ? source : request.getHeader("Destination"),
                kind == Kind.PULL ? SOURCE : "Destination");
        String credential = credential(request.getHeader(CREDENTIAL), subject.presentedCertificate(),
                request.getHeader(TRANSFER_AUTHORIZATION) != null);
        if (Ticket.REMOTE_GRIDSITE.equals(credential) && !subject.anonymous() && !subject.mayActWithDelegation()) {
            // a macaroon's subject names its issuer's DN, but only its issuer may hand it her delegation
            throw new DoorException(403, "Credential gridsite presents a proxy of your delegation, which " + (subject.dn() == null
                    ? "a bearer token cannot make" : "a macaroon may use only when minted with the caveat credential:gridsite or sent with a certificate of its DN")
                    + ": use Credential: none (and TransferHeaderAuthorization for the remote)");
        }
        return new CopyRequest(kind, remote, credential);
    }

    /** The remote side's URL: absolute http or https, a host, no user information (a password in a URL leaks into logs). */
    static String remoteUrl(String value, String header) {
        URI uri;
        try {
            uri = new URI(value.trim());
        } catch (URISyntaxException e) {
            throw new DoorException(400, "bad " + header + ": not a URI");
        }
        String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
        if (!uri.isAbsolute() || !(scheme.equals("http") || scheme.equals("https"))) {
            throw new DoorException(400, "bad " + header + ": a third-party copy needs an absolute http or https URL");
        }
        if (uri.getRawUserInfo() != null) {
            throw new DoorException(400, "bad " + header + ": user information in the URL is refused (pass credentials in TransferHeader headers)");
        }
        if (uri.getHost() == null || uri.getRawPath() == null || uri.getRawPath().isEmpty()) {
            throw new DoorException(400, "bad " + header + ": no host or no path");
        }
        if (uri.getRawFragment() != null) {
            throw new DoorException(400, "bad " + header + ": a fragment (#) names no resource");
        }
        return uri.toASCIIString();
    }

    /**
     * A 403 when the remote is written as an address literal in an internal range (loopback, private, link-local,
     * metadata...) that {@code allowed} does not list: what the door can see without a lookup. A host name is
     * resolved, checked and connected to by the pool.
     */
    void requireReachable(AllowedHosts allowed) {
        String host = URI.create(remote).getHost();
        InetAddress literal = Cidr.literal(host);
        String refusal = literal == null ? null : allowed.refusal(host, literal);
        if (refusal != null) {
            throw new DoorException(403, (kind == Kind.PULL ? SOURCE : "Destination") + " refused: " + refusal);
        }
    }

    static String credential(String header, boolean authenticated, boolean remoteToken) {
        if (header == null || header.isBlank()) {
            return authenticated && !remoteToken ? Ticket.REMOTE_GRIDSITE : Ticket.REMOTE_NONE;
        }
        String value = header.trim().toLowerCase(Locale.ROOT);
        return switch (value) {
            case Ticket.REMOTE_NONE, Ticket.REMOTE_GRIDSITE -> value;
            default -> throw new DoorException(400, "Credential " + header.trim().lines().findFirst().orElse("")
                    + " is not supported (none or gridsite)");
        };
    }
}
