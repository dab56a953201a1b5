package org.gridcache.door.webdav;

import org.gridcache.door.http.DoorException;
import org.gridcache.door.namespace.Namespace;
import org.gridcache.door.namespace.NamespaceEntry;
import io.milton.resource.CollectionResource;
import io.milton.resource.Resource;
import java.util.List;
import org.gridcache.common.GridPath;

/** A collection for PROPFIND: its children come from {@link Namespace#list} (the origin, plus mount points). */
final class DoorCollectionResource extends DoorResource implements CollectionResource {
    private final Namespace namespace;

    DoorCollectionResource(Namespace namespace, NamespaceEntry entry) {
        super(entry);
        this.namespace = namespace;
    }

    @Override
    public Resource child(String childName) {
        try {
            return DoorResource.of(namespace, namespace.stat(GridPath.child(entry.path(), childName)));
        } catch (DoorException e) {
            return null;
        }
    }

    @Override
    public List<? extends Resource> getChildren() {
        return namespace.list(entry.path()).stream().map(e -> DoorResource.of(namespace, e)).toList();
    }
}
