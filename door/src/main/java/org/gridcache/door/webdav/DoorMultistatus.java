package org.gridcache.door.webdav;

import io.milton.http.Response;
import io.milton.http.XmlWriter;
import io.milton.http.values.ValueAndType;
import io.milton.http.values.ValueWriters;
import io.milton.http.webdav.PropFindResponse;
import io.milton.http.webdav.PropFindXmlFooter;
import io.milton.http.webdav.PropFindXmlGenerator;
import java.io.OutputStream;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import javax.xml.namespace.QName;
import org.gridcache.door.props.PropertyXml;
import org.gridcache.zk.props.DeadProperty;

/**
 * The PROPFIND multistatus, written by the door instead of Milton CE's generator, which declares every namespace of
 * the answer on the root with a prefix, and so writes {@code xmlns:ns1=""} for a property in no namespace: not
 * well-formed, and a client's parser rejects the whole answer. Here live properties are written by Milton's value
 * writers under prefixes for their (non-empty) namespaces, dead properties as the standalone elements the store keeps,
 * and a property in no namespace that has no value as {@code <name xmlns=""/>}.
 */
final class DoorMultistatus extends PropFindXmlGenerator {
    private static final String DAV = "DAV:";
    private final ValueWriters values;

    DoorMultistatus(ValueWriters values) {
        super(values);
        this.values = values;
    }

    @Override
    public void generate(List<PropFindResponse> responses, OutputStream out, boolean writeErrorProps) {
        generate(responses, out, writeErrorProps, null);
    }

    @Override
    public void generate(List<PropFindResponse> responses, OutputStream out, boolean writeErrorProps, PropFindXmlFooter footer) {
        Map<String, String> prefixes = prefixes(responses);
        XmlWriter writer = new XmlWriter(out);
        writer.writeXMLHeader();
        StringBuilder root = new StringBuilder("<d:multistatus");
        prefixes.forEach((ns, prefix) -> root.append(" xmlns:").append(prefix).append("=\"").append(PropertyXml.escape(ns, true)).append('"'));
        writer.writeText(root.append('>').toString());
        writer.newLine();
        for (PropFindResponse response : responses) {
            response(writer, response, prefixes, writeErrorProps);
        }
        if (footer != null) {
            footer.footer(writer);
        }
        writer.writeText("</d:multistatus>");
        writer.flush();
    }

    /** A prefix for every non-empty namespace of a live property, {@code d} for DAV:. */
    private static Map<String, String> prefixes(List<PropFindResponse> responses) {
        Map<String, String> prefixes = new LinkedHashMap<>();
        prefixes.put(DAV, "d");
        for (PropFindResponse response : responses) {
            response.getKnownProperties().forEach((name, value) -> {
                if (value == null || !(value.getValue() instanceof DeadProperty)) {
                    add(prefixes, name);
                }
            });
            response.getErrorProperties().values().forEach(errors -> errors.forEach(e -> add(prefixes, e.getName())));
        }
        return prefixes;
    }

    private static void add(Map<String, String> prefixes, QName name) {
        String ns = name.getNamespaceURI();
        if (!ns.isEmpty() && !prefixes.containsKey(ns)) {
            prefixes.put(ns, "ns" + prefixes.size());
        }
    }

    /** An empty element naming a property: a prefix for a namespace, {@code xmlns=""} for none. */
    private static String nameOnly(QName name, Map<String, String> prefixes) {
        return name.getNamespaceURI().isEmpty() ? PropertyXml.name("", name.getLocalPart())
                : "<" + prefixes.get(name.getNamespaceURI()) + ":" + name.getLocalPart() + "/>";
    }

    private void response(XmlWriter writer, PropFindResponse response, Map<String, String> prefixes, boolean writeErrorProps) {
        writer.writeText("<d:response><d:href>" + PropertyXml.escape(response.getHref(), false) + "</d:href>");
        if (response.getStatus() != null) {
            writer.writeText("<d:status>" + response.getStatus() + "</d:status></d:response>");
            writer.newLine();
            return;
        }
        Map<QName, ValueAndType> known = response.getKnownProperties();
        boolean errors = writeErrorProps && response.getErrorProperties().values().stream().anyMatch(names -> !names.isEmpty());
        if (!known.isEmpty() || !errors) {
            writer.writeText("<d:propstat><d:prop>");
            known.forEach((name, value) -> {
                if (value != null && value.getValue() instanceof DeadProperty dead) {
                    writer.writeText(dead.xml());
                } else if (value == null || name.getNamespaceURI().isEmpty()) {
                    writer.writeText(nameOnly(name, prefixes)); // propname: names only
                } else {
                    values.writeValue(writer, name, prefixes.get(name.getNamespaceURI()), value, response.getHref(), prefixes);
                }
            });
            writer.writeText("</d:prop><d:status>" + Response.Status.SC_OK + "</d:status></d:propstat>");
        }
        if (errors) {
            response.getErrorProperties().forEach((status, names) -> {
                if (names.isEmpty()) {
                    return; // Milton keeps a status with no property: no propstat for it
                }
                writer.writeText("<d:propstat><d:prop>");
                for (PropFindResponse.NameAndError e : names) {
                    writer.writeText(nameOnly(e.getName(), prefixes));
                }
                writer.writeText("</d:prop><d:status>" + status + "</d:status></d:propstat>");
            });
        }
        writer.writeText("</d:response>");
        writer.newLine();
    }
}
