package org.gridcache.door.write;

import org.gridcache.common.origin.OriginEntry;

/** The writer of each kind of origin, chosen by the mount entry's protocol as the namespace chooses its lister. */
public final class OriginWriters {
    private final OriginWriter local;
    private final OriginWriter webdav;
    private final OriginWriter gridftp;

    public OriginWriters(OriginWriter local, OriginWriter webdav, OriginWriter gridftp) {
        this.local = local;
        this.webdav = webdav;
        this.gridftp = gridftp;
    }

    /** The writer of {@code origin}'s kind. */
    public OriginWriter of(OriginEntry origin) {
        if (OriginEntry.GSIFTP.equals(origin.protocol())) {
            return gridftp;
        }
        return "file".equals(origin.protocol()) ? local : webdav;
    }
}
