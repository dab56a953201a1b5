package org.gridcache.zk.props;

/** A dead property, or a resource's, or the cluster's, beyond what the store keeps (RFC 4918: 507 for that property). */
public final class PropertyLimitException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public PropertyLimitException(String message) {
        super(message);
    }
}
