package org.gridcache.common;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import javax.xml.XMLConstants;
import javax.xml.parsers.DocumentBuilder;
import javax.xml.parsers.DocumentBuilderFactory;
import javax.xml.parsers.ParserConfigurationException;
import org.w3c.dom.Element;
import org.xml.sax.SAXException;
import org.xml.sax.helpers.DefaultHandler;

/**
 * A small XML document from a client (a PROPFIND or LOCK body), parsed namespace-aware with any document type
 * declaration refused: no external entity is fetched and no entity is expanded, whatever the body says.
 */
public final class SecureXml {
    private SecureXml() {
    }

    /** The root element; {@link SAXException} or {@link IOException} for anything malformed or with a DTD. */
    public static Element parse(byte[] body) throws SAXException, IOException {
        return builder().parse(new ByteArrayInputStream(body)).getDocumentElement();
    }

    private static DocumentBuilder builder() {
        try {
            DocumentBuilderFactory factory = DocumentBuilderFactory.newInstance();
            factory.setNamespaceAware(true);
            factory.setFeature("http://apache.org/xml/features/disallow-doctype-decl", true);
            factory.setFeature(XMLConstants.FEATURE_SECURE_PROCESSING, true);
            factory.setXIncludeAware(false);
            factory.setExpandEntityReferences(false);
            DocumentBuilder builder = factory.newDocumentBuilder();
            builder.setErrorHandler(new DefaultHandler()); // no stderr noise for a client's bad XML
            return builder;
        } catch (ParserConfigurationException e) {
            throw new IllegalStateException(e);
        }
    }
}
