package org.gridcache.zk.props;

import java.util.Objects;

/**
 * One dead property of a resource: its name ({@code namespace} is "" for a property in no namespace) and the property
 * element as the door serialises it for a PROPFIND answer ({@code xml}: the element itself, its {@code xml:lang} and
 * every namespace it uses declared on it, so it can be written anywhere in a multistatus unchanged).
 */
public record DeadProperty(String namespace, String name, String xml) {
    public DeadProperty {
        Objects.requireNonNull(namespace, "namespace");
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(xml, "xml");
        if (name.isEmpty()) {
            throw new IllegalArgumentException("a property without a name");
        }
    }

    /** Whether this is the property {@code {namespace}name}. */
    public boolean named(String namespace, String name) {
        return this.namespace.equals(namespace) && this.name.equals(name);
    }
}
