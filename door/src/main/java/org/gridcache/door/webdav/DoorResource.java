package org.gridcache.door.webdav;

import io.milton.http.Auth;
import io.milton.http.Request;
import io.milton.resource.PropFindableResource;
import java.util.Date;
import org.gridcache.common.security.GridSubject;
import org.gridcache.door.http.DoorReadFilter;
import org.gridcache.door.namespace.Namespace;
import org.gridcache.door.namespace.NamespaceEntry;

/**
 * What Milton sees of one namespace entry. Only PROPFIND reaches Milton (see {@link DoorReadFilter}), so resources
 * describe themselves and never send content. Authorization is decided before Milton, in the filter.
 */
abstract class DoorResource implements PropFindableResource {
    final NamespaceEntry entry;

    DoorResource(NamespaceEntry entry) {
        this.entry = entry;
    }

    /** {@code subject}: whom a collection lists its children for. */
    static DoorResource of(Namespace namespace, GridSubject subject, NamespaceEntry entry) {
        return entry.collection() ? new DoorCollectionResource(namespace, subject, entry) : new DoorFileResource(entry);
    }

    @Override
    public String getUniqueId() {
        String etag = entry.etag();
        if (etag == null) {
            return null;
        }
        if (etag.startsWith("W/")) {
            etag = etag.substring(2);
        }
        return etag.replace("\"", "");
    }

    @Override
    public String getName() {
        return entry.name();
    }

    @Override
    public Object authenticate(String user, String password) {
        return null; // no password authentication at this door
    }

    @Override
    public boolean authorise(Request request, Request.Method method, Auth auth) {
        return true; // the filter let the request through: it is allowed
    }

    @Override
    public String getRealm() {
        return "gridcache";
    }

    @Override
    public Date getModifiedDate() {
        return entry.mtimeMillis() < 0 ? null : new Date(entry.mtimeMillis());
    }

    @Override
    public String checkRedirect(Request request) {
        return null; // redirects are the filter's business (Milton CE's redirect is a broken servlet forward)
    }

    @Override
    public Date getCreateDate() {
        return null;
    }
}
