package org.gridcache.zk.props;

import java.util.List;
import java.util.Objects;

/**
 * The content of one {@code /props/<hash>} znode: the namespace path it belongs to (the hash alone cannot be read
 * back), a revision each write increments (so a door can wait until its own watch has seen its write), and the
 * resource's dead properties in the order they were first set.
 */
public record StoredProperties(String path, long revision, List<DeadProperty> properties) {
    public StoredProperties {
        Objects.requireNonNull(path, "path");
        properties = List.copyOf(properties);
    }

    /** The UTF-16 length of the properties' names and elements: what the per-resource limit counts. */
    public long size() {
        return properties.stream().mapToLong(DeadProperty::size).sum();
    }

    /** The characters of the properties {@code subject} set here. */
    long sizeOf(String subject) {
        return properties.stream().filter(p -> subject.equals(p.setBy())).mapToLong(DeadProperty::size).sum();
    }
}
