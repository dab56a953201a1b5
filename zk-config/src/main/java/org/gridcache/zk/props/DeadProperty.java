package org.gridcache.zk.props;

import java.util.Objects;

/**
 * One dead property of a resource: its name ({@code namespace} is "" for a property in no namespace) and the property
 * element as the door serialises it for a PROPFIND answer ({@code xml}: the element itself, its {@code xml:lang} and
 * every namespace it uses declared on it, so it can be written anywhere in a multistatus unchanged). {@code setBy}: the
 * subject whose share of the store it counts against (who set, copied or moved it; see {@link DeadPropertyStore}).
 */
public record DeadProperty(String namespace, String name, String xml, String setBy) {
    public DeadProperty {
        Objects.requireNonNull(namespace, "namespace");
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(xml, "xml");
        if (name.isEmpty()) {
            throw new IllegalArgumentException("a property without a name");
        }
    }

    /** A property nobody is charged for (stored before subjects were: {@code setBy} null). */
    public DeadProperty(String namespace, String name, String xml) {
        this(namespace, name, xml, null);
    }

    /** The same property, charged to {@code subject} (who copied or moved it here). */
    public DeadProperty setBy(String subject) {
        return new DeadProperty(namespace, name, xml, subject);
    }

    /** The characters this property counts for, in a resource's and in its subject's share. */
    public long size() {
        return namespace.length() + name.length() + xml.length();
    }

    /** Whether this is the property {@code {namespace}name}. */
    public boolean named(String namespace, String name) {
        return this.namespace.equals(namespace) && this.name.equals(name);
    }
}
