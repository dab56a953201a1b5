package org.gridcache.door.webdav;

import org.gridcache.door.exchange.DoorRequests;
import io.milton.resource.Resource;
import io.milton.servlet.MiltonServlet;
import jakarta.servlet.http.HttpServletRequest;
import java.util.List;
import javax.xml.namespace.QName;
import org.gridcache.common.checksum.Checksums;
import org.gridcache.common.security.GridSubject;
import org.gridcache.door.namespace.NamespaceEntry;

/**
 * dCache's PROPFIND property {@code {http://www.dcache.org/2013/webdav}Checksums}: a file's known checksums as one
 * RFC 3230 {@code Digest} value ({@code adler32=…,md5=…}). Known means held by a pool now (its sidecar), asked of the
 * pool the policy ranks first; a file no pool holds has no such property (404 in its propstat), since computing it
 * would mean reading the whole file for a listing. As in dCache, only a PROPFIND that names it gets it (not allprop).
 */
final class ChecksumProperty extends ReadOnlyPropertySource {
    static final QName CHECKSUMS = new QName("http://www.dcache.org/2013/webdav", "Checksums");
    private static final PropertyMetaData KNOWN = new PropertyMetaData(PropertyAccessibility.READ_ONLY, String.class);

    /** A file's checksums as far as a pool holds them, for the subject of the request; NONE when unknown. */
    @FunctionalInterface
    interface Lookup {
        Checksums of(GridSubject subject, String path, NamespaceEntry file);
    }

    private final Lookup lookup;

    ChecksumProperty(Lookup lookup) {
        this.lookup = lookup;
    }

    @Override
    public PropertyMetaData getPropertyMetaData(QName name, Resource resource) {
        // Milton answers a property whose metadata is known with 200 even when its value is null: unknown is decided here
        return CHECKSUMS.equals(name) && known(resource) != null ? KNOWN : PropertyMetaData.UNKNOWN;
    }

    @Override
    public Object getProperty(QName name, Resource resource) {
        return CHECKSUMS.equals(name) ? known(resource) : null;
    }

    /** The property's value, asked once per resource and request (Milton asks for metadata, then for the value). */
    private String known(Resource resource) {
        if (!(resource instanceof DoorFileResource file)) {
            return null;
        }
        HttpServletRequest request = MiltonServlet.request();
        String key = "gridcache.checksums:" + file.entry.path();
        if (request != null && request.getAttribute(key) instanceof String cached) {
            return cached.isEmpty() ? null : cached;
        }
        Object subject = request == null ? null : request.getAttribute(DoorRequests.SUBJECT_ATTRIBUTE);
        Checksums known = lookup.of(subject instanceof GridSubject s ? s : GridSubject.ANONYMOUS, file.entry.path(), file.entry);
        String value = known.isEmpty() ? "" : known.rfc3230();
        if (request != null) {
            request.setAttribute(key, value);
        }
        return value.isEmpty() ? null : value;
    }

    @Override
    String why() {
        return "checksums are read-only";
    }

    @Override
    public List<QName> getAllPropertyNames(Resource resource) {
        return List.of(); // not in allprop, as dCache: a listing must not make pools answer for every file
    }
}
