package org.gridcache.door.props;

import javax.xml.XMLConstants;
import org.w3c.dom.Attr;
import org.w3c.dom.Element;
import org.w3c.dom.NamedNodeMap;
import org.w3c.dom.Node;

/**
 * A property element of a PROPPATCH as standalone XML: every element declares its own default namespace (
 * {@code xmlns=""} for none) and every namespaced attribute its prefix, so the text is well-formed and means the same
 * wherever a multistatus places it, whatever prefixes the client used. The {@code xml:lang} in scope where the client
 * set it goes with it (RFC 4918, 4.3). Comments and processing instructions are dropped; text is kept exactly.
 */
public final class PropertyXml {
    private PropertyXml() {
    }

    /** {@code property} as standalone XML, with {@code lang} (the {@code xml:lang} in scope, or null) on it. */
    public static String standalone(Element property) {
        StringBuilder out = new StringBuilder(256);
        write(property, langInScope(property), out);
        return out.toString();
    }

    /** An empty element naming the property {@code {namespace}name}, for a multistatus's propstat. */
    public static String name(String namespace, String name) {
        return "<" + name + " xmlns=\"" + escape(namespace, true) + "\"/>";
    }

    private static String langInScope(Element property) {
        for (Node n = property; n instanceof Element e; n = n.getParentNode()) {
            if (e.hasAttributeNS(XMLConstants.XML_NS_URI, "lang")) {
                return e.getAttributeNS(XMLConstants.XML_NS_URI, "lang");
            }
        }
        return null;
    }

    private static void write(Element element, String lang, StringBuilder out) {
        String local = element.getLocalName();
        String namespace = element.getNamespaceURI() == null ? "" : element.getNamespaceURI();
        out.append('<').append(local).append(" xmlns=\"").append(escape(namespace, true)).append('"');
        if (lang != null) {
            out.append(" xml:lang=\"").append(escape(lang, true)).append('"');
        }
        NamedNodeMap attributes = element.getAttributes();
        int prefixes = 0;
        for (int i = 0; i < attributes.getLength(); i++) {
            Attr a = (Attr) attributes.item(i);
            String ns = a.getNamespaceURI();
            if (XMLConstants.XMLNS_ATTRIBUTE_NS_URI.equals(ns)) {
                continue; // declarations: this serialisation makes its own
            }
            if (XMLConstants.XML_NS_URI.equals(ns)) {
                if (!(lang != null && "lang".equals(a.getLocalName()))) {
                    out.append(" xml:").append(a.getLocalName()).append("=\"").append(escape(a.getValue(), true)).append('"');
                }
            } else if (ns != null && !ns.isEmpty()) {
                String prefix = "a" + prefixes++;
                out.append(" xmlns:").append(prefix).append("=\"").append(escape(ns, true)).append("\" ")
                        .append(prefix).append(':').append(a.getLocalName()).append("=\"").append(escape(a.getValue(), true)).append('"');
            } else {
                out.append(' ').append(a.getLocalName() != null ? a.getLocalName() : a.getName())
                        .append("=\"").append(escape(a.getValue(), true)).append('"');
            }
        }
        if (!element.hasChildNodes()) {
            out.append("/>");
            return;
        }
        out.append('>');
        for (Node child = element.getFirstChild(); child != null; child = child.getNextSibling()) {
            switch (child.getNodeType()) {
                case Node.ELEMENT_NODE -> write((Element) child, null, out);
                case Node.TEXT_NODE, Node.CDATA_SECTION_NODE -> out.append(escape(child.getNodeValue(), false));
                default -> { } // comments, processing instructions: not part of the value
            }
        }
        out.append("</").append(local).append('>');
    }

    /** XML escaping of text ({@code attribute}: for a double-quoted attribute value). */
    public static String escape(String s, boolean attribute) {
        StringBuilder out = new StringBuilder(s.length() + 16);
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '&' -> out.append("&amp;");
                case '<' -> out.append("&lt;");
                case '>' -> out.append("&gt;");
                case '\r' -> out.append("&#13;");
                case '"' -> out.append(attribute ? "&quot;" : "\"");
                case '\n' -> out.append(attribute ? "&#10;" : "\n");
                case '\t' -> out.append(attribute ? "&#9;" : "\t");
                default -> out.append(c);
            }
        }
        return out.toString();
    }
}
