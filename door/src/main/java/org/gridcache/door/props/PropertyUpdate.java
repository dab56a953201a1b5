package org.gridcache.door.props;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.gridcache.common.SecureXml;
import org.gridcache.door.exchange.DoorException;
import org.w3c.dom.Element;
import org.w3c.dom.Node;
import org.xml.sax.SAXException;

/**
 * A PROPPATCH body ({@code DAV:propertyupdate}), read with DTDs refused ({@link SecureXml}): its sets and removes in
 * document order, as RFC 4918 (9.2) wants them applied. Anything else is a 400 naming what is wrong.
 */
public final class PropertyUpdate {
    private static final String DAV = "DAV:";

    /** One instruction: set {@code {namespace}name} to {@code xml} (the element, {@link PropertyXml}), or remove it. */
    public record Operation(boolean set, String namespace, String name, String xml) {
    }

    private PropertyUpdate() {
    }

    /** The operations of {@code body}, in order; 400 for a body that is no well-formed propertyupdate or changes nothing. */
    public static List<Operation> parse(byte[] body) {
        Element root;
        try {
            root = SecureXml.parse(body);
        } catch (SAXException | IOException e) {
            throw new DoorException(400, "malformed PROPPATCH body (XML with a DTD is refused)");
        }
        if (!isDav(root, "propertyupdate")) {
            throw new DoorException(400, "PROPPATCH body is not a DAV:propertyupdate element");
        }
        List<Operation> operations = new ArrayList<>();
        for (Element instruction : children(root)) {
            boolean set = isDav(instruction, "set");
            if (!set && !isDav(instruction, "remove")) {
                continue; // RFC 4918, 17: elements it does not know are ignored
            }
            List<Element> props = children(instruction).stream().filter(e -> isDav(e, "prop")).toList();
            if (props.isEmpty()) {
                throw new DoorException(400, "a DAV:" + instruction.getLocalName() + " without DAV:prop");
            }
            for (Element prop : props) {
                for (Element property : children(prop)) {
                    String namespace = property.getNamespaceURI() == null ? "" : property.getNamespaceURI();
                    operations.add(new Operation(set, namespace, property.getLocalName(),
                            set ? PropertyXml.standalone(property) : null));
                }
            }
        }
        if (operations.isEmpty()) {
            throw new DoorException(400, "PROPPATCH sets and removes no property");
        }
        return operations;
    }

    private static boolean isDav(Element e, String name) {
        return DAV.equals(e.getNamespaceURI()) && name.equals(e.getLocalName());
    }

    private static List<Element> children(Element parent) {
        List<Element> elements = new ArrayList<>();
        for (Node n = parent.getFirstChild(); n != null; n = n.getNextSibling()) {
            if (n instanceof Element e) {
                elements.add(e);
            }
        }
        return elements;
    }
}
