package org.gridcache.door.webdav;

import io.milton.resource.Resource;
import java.util.List;
import java.util.Optional;
import javax.xml.namespace.QName;
import org.gridcache.door.namespace.NamespaceEntry;
import org.gridcache.door.namespace.Quota;

/**
 * RFC 4331's {@code DAV:quota-available-bytes} and {@code DAV:quota-used-bytes} of a collection, where its origin
 * reports them; elsewhere they are unknown (404 in the propstat: the RFC says not to report what is not known). Not
 * in allprop (RFC 4331, 3: they may be expensive).
 */
final class QuotaProperties extends ReadOnlyPropertySource {
    static final QName AVAILABLE = new QName("DAV:", "quota-available-bytes");
    static final QName USED = new QName("DAV:", "quota-used-bytes");
    private static final PropertyMetaData KNOWN = new PropertyMetaData(PropertyAccessibility.READ_ONLY, Long.class);

    /**
     * The quota of a collection (its entry is what the origin showed the request's subject); empty when its origin
     * does not say.
     */
    @FunctionalInterface
    interface Lookup {
        Optional<Quota> of(NamespaceEntry collection);
    }

    private final Lookup lookup;

    QuotaProperties(Lookup lookup) {
        this.lookup = lookup;
    }

    @Override
    public PropertyMetaData getPropertyMetaData(QName name, Resource resource) {
        return (AVAILABLE.equals(name) || USED.equals(name)) && quota(resource).isPresent() ? KNOWN : PropertyMetaData.UNKNOWN;
    }

    @Override
    public Object getProperty(QName name, Resource resource) {
        return quota(resource).map(q -> AVAILABLE.equals(name) ? q.availableBytes() : USED.equals(name) ? q.usedBytes() : null)
                .orElse(null);
    }

    private Optional<Quota> quota(Resource resource) {
        return resource instanceof DoorCollectionResource collection ? lookup.of(collection.entry) : Optional.empty();
    }

    @Override
    String why() {
        return "quota is the origin's";
    }

    @Override
    public List<QName> getAllPropertyNames(Resource resource) {
        return List.of();
    }
}
