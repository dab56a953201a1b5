package org.gridcache.door.webdav;

import io.milton.resource.Resource;
import java.util.List;
import java.util.function.Function;
import javax.xml.namespace.QName;
import org.gridcache.zk.props.DeadProperty;

/**
 * The dead properties of a resource (set by PROPPATCH, which the door answers itself: {@code door.props}) for
 * Milton's PROPFIND: named, in allprop and in propname. Consulted after Milton's live properties, and the door refuses
 * to set any of the {@code DAV:} namespace, so a dead property never hides a live one.
 */
final class DeadPropertySource extends ReadOnlyPropertySource {
    private static final PropertyMetaData DEAD = new PropertyMetaData(PropertyAccessibility.READ_ONLY, DeadProperty.class);
    private final Function<String, List<DeadProperty>> store;

    /** {@code store}: the dead properties of a namespace path. */
    DeadPropertySource(Function<String, List<DeadProperty>> store) {
        this.store = store;
    }

    @Override
    public PropertyMetaData getPropertyMetaData(QName name, Resource resource) {
        return find(name, resource) != null ? DEAD : PropertyMetaData.UNKNOWN;
    }

    @Override
    public Object getProperty(QName name, Resource resource) {
        return find(name, resource);
    }

    private DeadProperty find(QName name, Resource resource) {
        if (!(resource instanceof DoorResource door)) {
            return null;
        }
        for (DeadProperty p : store.apply(door.entry.path())) {
            if (p.named(name.getNamespaceURI(), name.getLocalPart())) {
                return p;
            }
        }
        return null;
    }

    @Override
    String why() {
        return "PROPPATCH is answered by the door";
    }

    @Override
    public List<QName> getAllPropertyNames(Resource resource) {
        if (!(resource instanceof DoorResource door)) {
            return List.of();
        }
        return store.apply(door.entry.path()).stream().map(p -> new QName(p.namespace(), p.name())).toList();
    }
}
