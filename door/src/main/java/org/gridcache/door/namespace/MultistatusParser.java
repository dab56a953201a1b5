package org.gridcache.door.namespace;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.net.URI;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.List;
import javax.xml.XMLConstants;
import javax.xml.parsers.DocumentBuilder;
import javax.xml.parsers.DocumentBuilderFactory;
import javax.xml.parsers.ParserConfigurationException;
import org.gridcache.common.UrlCodec;
import org.w3c.dom.Element;
import org.w3c.dom.Node;
import org.w3c.dom.NodeList;
import org.xml.sax.SAXException;
import org.xml.sax.helpers.DefaultHandler;

/**
 * Reads a WebDAV {@code 207 Multi-Status} from an origin with the JDK's DOM parser, DOCTYPEs and external entities
 * refused (an origin's XML is not trusted). Each {@code <D:response>} becomes one {@link Item} with its decoded href
 * path and the properties of its {@code 200} propstat.
 */
final class MultistatusParser {
    static final String DAV = "DAV:";

    /** One response element: {@code hrefPath} is the decoded URL path, without a trailing slash (except "/"). */
    record Item(String hrefPath, boolean collection, long size, long mtimeMillis, String etag, String contentType) {
    }

    private MultistatusParser() {
    }

    static List<Item> parse(byte[] xml) {
        Element root;
        try {
            root = builder().parse(new ByteArrayInputStream(xml)).getDocumentElement();
        } catch (SAXException | IOException e) {
            throw new IllegalArgumentException("malformed multistatus: " + e.getMessage());
        }
        if (!DAV.equals(root.getNamespaceURI()) || !"multistatus".equals(root.getLocalName())) {
            throw new IllegalArgumentException("not a DAV:multistatus document");
        }
        List<Item> items = new ArrayList<>();
        for (Element response : children(root, "response")) {
            Element href = first(response, "href");
            if (href == null) {
                continue;
            }
            items.add(item(hrefPath(href.getTextContent().trim()), okProp(response)));
        }
        return items;
    }

    private static Item item(String hrefPath, Element prop) {
        if (prop == null) {
            return new Item(hrefPath, false, -1, -1, null, null);
        }
        Element type = first(prop, "resourcetype");
        boolean collection = type != null && first(type, "collection") != null;
        return new Item(hrefPath, collection, number(text(prop, "getcontentlength")), date(text(prop, "getlastmodified")),
                text(prop, "getetag"), text(prop, "getcontenttype"));
    }

    /** The {@code <D:prop>} of the propstat whose status is 200 (servers list 404 props in another propstat). */
    private static Element okProp(Element response) {
        for (Element propstat : children(response, "propstat")) {
            String status = text(propstat, "status");
            if (status == null || status.contains(" 200")) {
                return first(propstat, "prop");
            }
        }
        return null;
    }

    static String hrefPath(String href) {
        String raw = href;
        if (href.startsWith("http://") || href.startsWith("https://")) {
            raw = URI.create(href).getRawPath();
        }
        String path = UrlCodec.decode(raw);
        while (path.length() > 1 && path.endsWith("/")) {
            path = path.substring(0, path.length() - 1);
        }
        return path.isEmpty() ? "/" : path;
    }

    private static long number(String text) {
        try {
            return text == null ? -1 : Long.parseLong(text.trim());
        } catch (NumberFormatException e) {
            return -1;
        }
    }

    private static long date(String text) {
        try {
            return text == null ? -1 : ZonedDateTime.parse(text.trim(), DateTimeFormatter.RFC_1123_DATE_TIME).toInstant().toEpochMilli();
        } catch (DateTimeParseException e) {
            return -1;
        }
    }

    private static String text(Element parent, String name) {
        Element e = first(parent, name);
        if (e == null) {
            return null;
        }
        String t = e.getTextContent().trim();
        return t.isEmpty() ? null : t;
    }

    private static Element first(Element parent, String name) {
        List<Element> found = children(parent, name);
        return found.isEmpty() ? null : found.get(0);
    }

    private static List<Element> children(Element parent, String name) {
        List<Element> out = new ArrayList<>();
        NodeList nodes = parent.getChildNodes();
        for (int i = 0; i < nodes.getLength(); i++) {
            Node n = nodes.item(i);
            if (n instanceof Element e && DAV.equals(e.getNamespaceURI()) && name.equals(e.getLocalName())) {
                out.add(e);
            }
        }
        return out;
    }

    private static DocumentBuilder builder() {
        try {
            DocumentBuilderFactory factory = DocumentBuilderFactory.newInstance();
            factory.setNamespaceAware(true);
            factory.setFeature("http://apache.org/xml/features/disallow-doctype-decl", true);
            factory.setFeature("http://xml.org/sax/features/external-general-entities", false);
            factory.setFeature("http://xml.org/sax/features/external-parameter-entities", false);
            factory.setFeature(XMLConstants.FEATURE_SECURE_PROCESSING, true);
            factory.setAttribute(XMLConstants.ACCESS_EXTERNAL_DTD, "");
            factory.setAttribute(XMLConstants.ACCESS_EXTERNAL_SCHEMA, "");
            factory.setXIncludeAware(false);
            factory.setExpandEntityReferences(false);
            DocumentBuilder builder = factory.newDocumentBuilder();
            builder.setErrorHandler(new DefaultHandler()); // errors surface as exceptions, not as stderr noise
            return builder;
        } catch (ParserConfigurationException e) {
            throw new IllegalStateException("JDK XML parser lacks secure features", e);
        }
    }
}
