package org.gridcache.door.write;

import org.gridcache.common.OriginEntry;
import org.gridcache.door.http.DoorException;

/** The writer of each kind of origin, chosen by the mount entry's protocol as the namespace chooses its lister. */
public final class OriginWriters {
    private final OriginWriter local;
    private final OriginWriter webdav;
    private final OriginWriter gridftp;

    /** {@code gridftp}: the writer of {@code gsiftp://} origins, null while there is none (their writes are 501). */
    public OriginWriters(OriginWriter local, OriginWriter webdav, OriginWriter gridftp) {
        this.local = local;
        this.webdav = webdav;
        this.gridftp = gridftp;
    }

    /** The writer of {@code origin}'s kind; 501 for a kind this door cannot write yet. */
    public OriginWriter of(OriginEntry origin) {
        if (OriginEntry.GSIFTP.equals(origin.protocol())) {
            if (gridftp == null) {
                throw new DoorException(501, "writes to gsiftp origins are not implemented yet");
            }
            return gridftp;
        }
        return "file".equals(origin.protocol()) ? local : webdav;
    }
}
