package org.gridcache.door.webdav;

import io.milton.http.Auth;
import io.milton.http.Range;
import io.milton.resource.GetableResource;
import java.io.OutputStream;
import java.util.Map;
import org.gridcache.door.namespace.NamespaceEntry;

/** A file for PROPFIND: size, type, date and ETag from the origin. GET never reaches it (the filter redirects). */
final class DoorFileResource extends DoorResource implements GetableResource {
    DoorFileResource(NamespaceEntry entry) {
        super(entry);
    }

    @Override
    public void sendContent(OutputStream out, Range range, Map<String, String> params, String contentType) {
        throw new IllegalStateException("file content is served by pools, never by Milton");
    }

    @Override
    public Long getMaxAgeSeconds(Auth auth) {
        return null;
    }

    @Override
    public String getContentType(String accepts) {
        return entry.contentType() != null ? entry.contentType() : "application/octet-stream";
    }

    @Override
    public Long getContentLength() {
        return entry.size() < 0 ? null : entry.size();
    }
}
