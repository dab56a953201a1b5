package org.gridcache.door.lock;

import java.io.IOException;
import java.io.StringWriter;
import java.util.Optional;
import javax.xml.XMLConstants;
import javax.xml.transform.OutputKeys;
import javax.xml.transform.Transformer;
import javax.xml.transform.TransformerException;
import javax.xml.transform.TransformerFactory;
import javax.xml.transform.dom.DOMSource;
import javax.xml.transform.stream.StreamResult;
import org.gridcache.common.SecureXml;
import org.gridcache.door.exchange.DoorException;
import org.w3c.dom.Element;
import org.w3c.dom.Node;
import org.xml.sax.SAXException;

/**
 * Reads a LOCK body ({@code DAV:lockinfo}). A document type declaration is refused outright, so no external entity
 * or entity expansion is ever processed; anything but a write lock with an exclusive or shared scope is a 400 naming
 * what is wrong. An empty body is a refresh of a lock the {@code If} header names (RFC 4918 §9.10.2).
 */
public final class LockRequests {
    public static final int MAX_BODY = 64 * 1024;
    private static final String DAV = "DAV:";

    private LockRequests() {
    }

    /** Empty: a refresh. */
    public static Optional<LockRequest> parse(byte[] body) {
        if (body.length == 0) {
            return Optional.empty();
        }
        if (body.length > MAX_BODY) {
            throw new DoorException(413, "LOCK body larger than " + MAX_BODY + " bytes");
        }
        Element root = document(body);
        if (!isDav(root, "lockinfo")) {
            throw new DoorException(400, "LOCK body is not a DAV:lockinfo");
        }
        Element scope = child(root, "lockscope");
        Element type = child(root, "locktype");
        if (scope == null || type == null) {
            throw new DoorException(400, "LOCK body without lockscope or locktype");
        }
        if (child(type, "write") == null) {
            throw new DoorException(400, "only write locks exist (DAV:locktype)");
        }
        boolean exclusive = child(scope, "exclusive") != null;
        if (!exclusive && child(scope, "shared") == null) {
            throw new DoorException(400, "DAV:lockscope is neither exclusive nor shared");
        }
        Element owner = child(root, "owner");
        return Optional.of(new LockRequest(exclusive, owner == null ? null : innerXml(owner)));
    }

    private static Element document(byte[] body) {
        try {
            return SecureXml.parse(body);
        } catch (SAXException | IOException e) {
            throw new DoorException(400, "malformed LOCK body (document type declarations are refused)");
        }
    }

    private static boolean isDav(Node node, String name) {
        return node instanceof Element e && DAV.equals(e.getNamespaceURI()) && name.equals(e.getLocalName());
    }

    private static Element child(Element parent, String name) {
        for (Node n = parent.getFirstChild(); n != null; n = n.getNextSibling()) {
            if (isDav(n, name)) {
                return (Element) n;
            }
        }
        return null;
    }

    /** The owner element's content as XML (a href, or text), to hand back in lockdiscovery as the client sent it. */
    private static String innerXml(Element owner) {
        try {
            TransformerFactory factory = TransformerFactory.newInstance();
            factory.setFeature(XMLConstants.FEATURE_SECURE_PROCESSING, true);
            Transformer transformer = factory.newTransformer();
            transformer.setOutputProperty(OutputKeys.OMIT_XML_DECLARATION, "yes");
            StringWriter out = new StringWriter();
            for (Node n = owner.getFirstChild(); n != null; n = n.getNextSibling()) {
                transformer.transform(new DOMSource(n), new StreamResult(out));
            }
            return out.toString().strip();
        } catch (TransformerException e) {
            throw new DoorException(400, "LOCK owner cannot be read back");
        }
    }
}
