package org.gridcache.door.webdav;

import org.gridcache.door.http.DoorException;
import org.gridcache.door.http.DoorReadFilter;
import org.gridcache.door.namespace.Namespace;
import io.milton.http.ResourceFactory;
import io.milton.resource.Resource;
import org.gridcache.common.GridPath;

/**
 * Milton's entry into the namespace. The filter has already checked the path and resolved it (so this is a cache
 * hit); anything absent is null, which Milton answers with 404.
 */
final class DoorResourceFactory implements ResourceFactory {
    private final Namespace namespace;

    DoorResourceFactory(Namespace namespace) {
        this.namespace = namespace;
    }

    @Override
    public Resource getResource(String host, String path) {
        String normalized;
        try {
            normalized = GridPath.normalize(path);
        } catch (IllegalArgumentException e) {
            return null;
        }
        if (GridPath.isUnder(normalized, DoorReadFilter.SERVICES)) {
            return null;
        }
        try {
            return DoorResource.of(namespace, namespace.stat(normalized));
        } catch (DoorException e) {
            if (e.status() == 404) {
                return null;
            }
            throw e;
        }
    }
}
