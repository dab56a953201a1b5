package org.gridcache.door.webdav;

import io.milton.http.Response;
import io.milton.property.PropertySource;
import io.milton.resource.Resource;
import javax.xml.namespace.QName;

/**
 * A property source Milton never changes anything through: PROPPATCH is answered by the door ({@code door.props}), so
 * a set or clear reaching one of these would be a bug; it is refused with 403 and the source's {@link #why}.
 */
abstract class ReadOnlyPropertySource implements PropertySource {
    /** Why a client cannot change these properties. */
    abstract String why();

    @Override
    public final void setProperty(QName name, Object value, Resource resource) throws PropertySetException {
        throw new PropertySetException(Response.Status.SC_FORBIDDEN, why());
    }

    @Override
    public final void clearProperty(QName name, Resource resource) throws PropertySetException {
        throw new PropertySetException(Response.Status.SC_FORBIDDEN, why());
    }
}
