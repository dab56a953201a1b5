package org.gridcache.door.lock;

import org.gridcache.zk.lock.DavLock;

/** The {@code DAV:activelock} XML of a lock (RFC 4918 §14.1), for LOCK answers and the lockdiscovery property. */
public final class LockDiscovery {
    private LockDiscovery() {
    }

    /** {@code rootHref}: the encoded URL path of the locked resource. */
    public static String activeLock(DavLock lock, String rootHref) {
        StringBuilder xml = new StringBuilder("<D:activelock>")
                .append("<D:locktype><D:write/></D:locktype>")
                .append("<D:lockscope>").append(lock.exclusive() ? "<D:exclusive/>" : "<D:shared/>").append("</D:lockscope>")
                .append("<D:depth>").append(lock.infinite() ? "infinity" : "0").append("</D:depth>");
        if (lock.owner() != null && !lock.owner().isEmpty()) {
            xml.append("<D:owner>").append(lock.owner()).append("</D:owner>");
        }
        return xml.append("<D:timeout>").append(LockTimeouts.header(lock.timeoutSeconds())).append("</D:timeout>")
                .append("<D:locktoken><D:href>").append(escape(lock.token())).append("</D:href></D:locktoken>")
                .append("<D:lockroot><D:href>").append(escape(rootHref)).append("</D:href></D:lockroot>")
                .append("</D:activelock>").toString();
    }

    /** The body of a successful LOCK. */
    public static String lockAnswer(DavLock lock, String rootHref) {
        return "<?xml version=\"1.0\" encoding=\"utf-8\"?>\n<D:prop xmlns:D=\"DAV:\"><D:lockdiscovery>"
                + activeLock(lock, rootHref) + "</D:lockdiscovery></D:prop>\n";
    }

    static String escape(String s) {
        return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("\"", "&quot;");
    }
}
