package org.gridcache.door.namespace;

import java.io.ByteArrayInputStream;
import java.io.InputStream;
import java.net.URI;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.MissingResourceException;
import java.util.Map;
import javax.xml.XMLConstants;
import javax.xml.stream.XMLInputFactory;
import javax.xml.stream.XMLStreamConstants;
import javax.xml.stream.XMLStreamException;
import javax.xml.stream.XMLStreamReader;
import org.gridcache.common.UrlCodec;

/**
 * Reads a WebDAV {@code 207 Multi-Status} from an origin as it arrives, with the JDK's StAX parser (no tree of the
 * whole document in memory), DTDs and external entities refused (an origin's XML is not trusted). Each
 * {@code <D:response>} becomes one {@link Item} with its decoded href path and the properties of its {@code 200}
 * propstat.
 */
final class MultistatusParser {
    static final String DAV = "DAV:";
    private static final XMLInputFactory FACTORY = factory();

    /**
     * One response element: {@code hrefPath} is the decoded URL path, without a trailing slash (except "/");
     * {@code quota} is RFC 4331's pair where the origin sent both numbers, else null.
     */
    record Item(String hrefPath, boolean collection, long size, long mtimeMillis, String etag, String contentType, Quota quota) {
    }

    private MultistatusParser() {
    }

    static List<Item> parse(byte[] xml) {
        return parse(new ByteArrayInputStream(xml));
    }

    /**
     * The items of the multistatus in {@code in}; {@link IllegalArgumentException} for anything else. What the stream
     * throws unchecked (a size cap) passes through.
     */
    static List<Item> parse(InputStream in) {
        try {
            XMLStreamReader reader = FACTORY.createXMLStreamReader(in);
            try {
                return new Walk(reader).items();
            } finally {
                reader.close();
            }
        } catch (XMLStreamException e) {
            if (e.getNestedException() instanceof RuntimeException r && !(r instanceof IllegalArgumentException)) {
                throw r;
            }
            throw new IllegalArgumentException("malformed multistatus: " + oneLine(e.getMessage()));
        } catch (MissingResourceException e) {
            // found by MultistatusFuzzTest: the JDK's StAX parser, reporting some malformed DTDs, looks up a message it
            // does not have; the document is malformed all the same (a 502 naming the origin, not a 500)
            throw new IllegalArgumentException("malformed multistatus (" + e.getKey() + ")");
        }
    }

    /**
     * One pass over the document. Only elements of the DAV: namespace at their place count: multistatus / response /
     * (href | propstat / (status | prop / property)); the text of each is kept until its element ends.
     */
    private static final class Walk {
        private final XMLStreamReader reader;
        private final List<Item> items = new ArrayList<>();
        /** The DAV: local names from the root to the current element; "" for an element of another namespace. */
        private final Deque<String> open = new ArrayDeque<>();
        private final StringBuilder text = new StringBuilder();
        private String href;
        private Map<String, String> okProps;
        private Map<String, String> props;
        private String status;

        Walk(XMLStreamReader reader) {
            this.reader = reader;
        }

        List<Item> items() throws XMLStreamException {
            boolean root = true;
            while (reader.hasNext()) {
                switch (reader.next()) {
                    case XMLStreamConstants.DTD -> throw new IllegalArgumentException("a DOCTYPE in a multistatus is refused");
                    case XMLStreamConstants.ENTITY_REFERENCE -> throw new IllegalArgumentException("an entity in a multistatus is refused");
                    case XMLStreamConstants.START_ELEMENT -> {
                        String name = DAV.equals(reader.getNamespaceURI()) ? reader.getLocalName() : "";
                        if (root && !name.equals("multistatus")) {
                            throw new IllegalArgumentException("not a DAV:multistatus document");
                        }
                        root = false;
                        open.push(name);
                        start();
                        text.setLength(0);
                    }
                    case XMLStreamConstants.CHARACTERS, XMLStreamConstants.CDATA, XMLStreamConstants.SPACE -> text.append(reader.getText());
                    case XMLStreamConstants.END_ELEMENT -> {
                        end();
                        open.pop();
                        text.setLength(0);
                    }
                    default -> {
                    }
                }
            }
            if (root) {
                throw new IllegalArgumentException("not a DAV:multistatus document");
            }
            return items;
        }

        /** The path of open DAV: names, root first, as "multistatus/response/…". */
        private String where() {
            StringBuilder b = new StringBuilder();
            for (var it = open.descendingIterator(); it.hasNext(); ) {
                b.append(b.isEmpty() ? "" : "/").append(it.next());
            }
            return b.toString();
        }

        private void start() {
            switch (where()) {
                case "multistatus/response" -> {
                    href = null;
                    okProps = null;
                }
                case "multistatus/response/propstat" -> {
                    props = new HashMap<>();
                    status = null;
                }
                case "multistatus/response/propstat/prop/resourcetype/collection" -> props.put("collection", "");
                default -> {
                }
            }
        }

        private void end() {
            String at = where();
            String value = text.toString().trim();
            switch (at) {
                case "multistatus/response/href" -> href = value;
                case "multistatus/response/propstat/status" -> status = value;
                case "multistatus/response/propstat" -> {
                    // servers list the properties they lack in another propstat (404)
                    if (okProps == null && (status == null || status.contains(" 200"))) {
                        okProps = props;
                    }
                }
                case "multistatus/response" -> {
                    if (href != null) {
                        items.add(item(hrefPath(href), okProps));
                    }
                }
                default -> {
                    String prefix = "multistatus/response/propstat/prop/";
                    if (at.startsWith(prefix) && at.indexOf('/', prefix.length()) < 0 && !value.isEmpty()) {
                        props.put(at.substring(prefix.length()), value);
                    }
                }
            }
        }
    }

    private static Item item(String hrefPath, Map<String, String> prop) {
        if (prop == null) {
            return new Item(hrefPath, false, -1, -1, null, null, null);
        }
        return new Item(hrefPath, prop.containsKey("collection"), number(prop.get("getcontentlength")),
                date(prop.get("getlastmodified")), prop.get("getetag"), prop.get("getcontenttype"), quota(prop));
    }

    /** Both RFC 4331 numbers, or null: one without the other (or a negative one) tells a client nothing it can use. */
    private static Quota quota(Map<String, String> prop) {
        long available = number(prop.get("quota-available-bytes"));
        long used = number(prop.get("quota-used-bytes"));
        return available < 0 || used < 0 ? null : new Quota(available, used);
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

    private static String oneLine(String message) {
        return message == null ? "" : message.lines().findFirst().orElse("");
    }

    private static XMLInputFactory factory() {
        XMLInputFactory factory = XMLInputFactory.newFactory();
        factory.setProperty(XMLInputFactory.IS_NAMESPACE_AWARE, true);
        factory.setProperty(XMLInputFactory.SUPPORT_DTD, false);
        factory.setProperty(XMLInputFactory.IS_SUPPORTING_EXTERNAL_ENTITIES, false);
        factory.setProperty(XMLInputFactory.IS_REPLACING_ENTITY_REFERENCES, false);
        factory.setProperty(XMLConstants.ACCESS_EXTERNAL_DTD, "");
        return factory;
    }
}
