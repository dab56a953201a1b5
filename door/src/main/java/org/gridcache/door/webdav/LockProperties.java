package org.gridcache.door.webdav;

import io.milton.http.XmlWriter;
import io.milton.http.values.ValueWriter;
import io.milton.property.PropertySource;
import io.milton.resource.Resource;
import io.milton.servlet.MiltonServlet;
import jakarta.servlet.http.HttpServletRequest;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import javax.xml.namespace.QName;
import org.gridcache.door.lock.DoorLocks;
import org.gridcache.door.lock.LockDiscovery;
import org.gridcache.zk.lock.DavLock;

/**
 * The PROPFIND properties of DAV class 2 (RFC 4918 §15.8, §15.10), which Milton CE does not know: {@code lockdiscovery}
 * (the cluster's live locks that cover the resource, at any door) and {@code supportedlock} (exclusive and shared
 * write locks). Both are in allprop, as the RFC defines them. The lock table is read once per request, however many
 * resources a Depth 1 PROPFIND lists.
 */
final class LockProperties implements PropertySource {
    static final QName LOCKDISCOVERY = new QName("DAV:", "lockdiscovery");
    static final QName SUPPORTEDLOCK = new QName("DAV:", "supportedlock");
    private static final PropertyMetaData XML = new PropertyMetaData(PropertyAccessibility.READ_ONLY, LockXml.class);
    private static final String LIVE_ATTRIBUTE = "gridcache.live-locks";
    private final Supplier<List<DavLock>> live;

    /** A property value that is XML in the DAV: namespace, written with the prefix Milton bound to it. */
    @FunctionalInterface
    interface LockXml {
        String render(String davPrefix);
    }

    /** {@code live}: every live lock of the cluster. */
    LockProperties(Supplier<List<DavLock>> live) {
        this.live = live;
    }

    @Override
    public PropertyMetaData getPropertyMetaData(QName name, Resource resource) {
        return (LOCKDISCOVERY.equals(name) || SUPPORTEDLOCK.equals(name)) && resource instanceof DoorResource ? XML : PropertyMetaData.UNKNOWN;
    }

    @Override
    public Object getProperty(QName name, Resource resource) {
        if (!(resource instanceof DoorResource door)) {
            return null;
        }
        if (SUPPORTEDLOCK.equals(name)) {
            return (LockXml) LockDiscovery::supportedLock;
        }
        if (!LOCKDISCOVERY.equals(name)) {
            return null;
        }
        HttpServletRequest request = MiltonServlet.request();
        List<DavLock> covering = liveLocks(request).stream().filter(l -> l.covers(door.entry.path())).toList();
        return (LockXml) prefix -> {
            StringBuilder xml = new StringBuilder();
            for (DavLock lock : covering) {
                xml.append(LockDiscovery.activeLock(lock, request == null ? lock.path() : DoorLocks.hrefOf(request, lock.path()), prefix));
            }
            return xml.toString();
        };
    }

    @SuppressWarnings("unchecked")
    private List<DavLock> liveLocks(HttpServletRequest request) {
        if (request != null && request.getAttribute(LIVE_ATTRIBUTE) instanceof List<?> cached) {
            return (List<DavLock>) cached;
        }
        List<DavLock> locks = live.get();
        if (request != null) {
            request.setAttribute(LIVE_ATTRIBUTE, locks);
        }
        return locks;
    }

    @Override
    public void setProperty(QName name, Object value, Resource resource) throws PropertySetException {
        throw new PropertySetException(io.milton.http.Response.Status.SC_FORBIDDEN, "locks are taken with LOCK, not PROPPATCH");
    }

    @Override
    public void clearProperty(QName name, Resource resource) throws PropertySetException {
        throw new PropertySetException(io.milton.http.Response.Status.SC_FORBIDDEN, "locks are removed with UNLOCK, not PROPPATCH");
    }

    @Override
    public List<QName> getAllPropertyNames(Resource resource) {
        return resource instanceof DoorResource ? List.of(LOCKDISCOVERY, SUPPORTEDLOCK) : List.of();
    }

    /** Writes a {@link LockXml} value as the XML it is (Milton's writers would escape it as text). */
    static final class Writer implements ValueWriter {
        @Override
        public boolean supports(String nsUri, String localName, Class c) {
            return c != null && LockXml.class.isAssignableFrom(c);
        }

        @Override
        public void writeValue(XmlWriter writer, String nsUri, String prefix, String localName, Object val, String href,
                               Map<String, String> nsPrefixes) {
            String xml = val instanceof LockXml x ? x.render(prefix) : "";
            writer.writeProperty(prefix, localName, xml);
        }

        @Override
        public Object parse(String namespaceURI, String localPart, String value) {
            throw new UnsupportedOperationException("lock properties are not set by PROPPATCH");
        }
    }
}
