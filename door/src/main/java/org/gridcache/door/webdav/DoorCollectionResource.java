package org.gridcache.door.webdav;

import io.milton.resource.CollectionResource;
import io.milton.resource.Resource;
import java.util.List;
import org.gridcache.common.GridPath;
import org.gridcache.common.security.GridSubject;
import org.gridcache.door.exchange.DoorException;
import org.gridcache.door.namespace.Namespace;
import org.gridcache.door.namespace.NamespaceEntry;

/**
 * A collection for PROPFIND: its children come from {@link Namespace#list} (the origin, plus mount points), listed as
 * the subject of the request.
 */
final class DoorCollectionResource extends DoorResource implements CollectionResource {
    private final Namespace namespace;
    private final GridSubject subject;

    DoorCollectionResource(Namespace namespace, GridSubject subject, NamespaceEntry entry) {
        super(entry);
        this.namespace = namespace;
        this.subject = subject;
    }

    @Override
    public Resource child(String childName) {
        try {
            return DoorResource.of(namespace, subject, namespace.stat(subject, GridPath.child(entry.path(), childName)));
        } catch (DoorException e) {
            return null;
        }
    }

    @Override
    public List<? extends Resource> getChildren() {
        return namespace.list(subject, entry.path()).stream().map(e -> DoorResource.of(namespace, subject, e)).toList();
    }
}
