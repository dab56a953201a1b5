package org.gridcache.door.lock;

import org.gridcache.zk.lock.DavLock;

/**
 * The XML of locks (RFC 4918 §14, §15.8): {@code DAV:activelock} for LOCK answers and the {@code lockdiscovery}
 * property, and the {@code supportedlock} property's entries. {@code prefix} is the one bound to {@code DAV:} where
 * the XML lands ({@code D} in a LOCK answer, Milton's in a PROPFIND).
 */
public final class LockDiscovery {
    private LockDiscovery() {
    }

    /** {@code rootHref}: the encoded URL path of the locked resource. */
    public static String activeLock(DavLock lock, String rootHref) {
        return activeLock(lock, rootHref, "D");
    }

    public static String activeLock(DavLock lock, String rootHref, String prefix) {
        String p = prefix == null || prefix.isEmpty() ? "" : prefix + ":";
        StringBuilder xml = new StringBuilder("<" + p + "activelock>")
                .append("<" + p + "locktype><" + p + "write/></" + p + "locktype>")
                .append("<" + p + "lockscope>").append(lock.exclusive() ? "<" + p + "exclusive/>" : "<" + p + "shared/>")
                .append("</" + p + "lockscope>")
                .append("<" + p + "depth>").append(lock.infinite() ? "infinity" : "0").append("</" + p + "depth>");
        if (lock.owner() != null && !lock.owner().isEmpty()) {
            xml.append("<" + p + "owner>").append(lock.owner()).append("</" + p + "owner>");
        }
        return xml.append("<" + p + "timeout>").append(LockTimeouts.header(lock.timeoutSeconds())).append("</" + p + "timeout>")
                .append("<" + p + "locktoken><" + p + "href>").append(escape(lock.token())).append("</" + p + "href></" + p + "locktoken>")
                .append("<" + p + "lockroot><" + p + "href>").append(escape(rootHref)).append("</" + p + "href></" + p + "lockroot>")
                .append("</" + p + "activelock>").toString();
    }

    /** The content of {@code DAV:supportedlock}: exclusive and shared write locks. */
    public static String supportedLock(String prefix) {
        String p = prefix == null || prefix.isEmpty() ? "" : prefix + ":";
        StringBuilder xml = new StringBuilder();
        for (String scope : new String[] {"exclusive", "shared"}) {
            xml.append("<" + p + "lockentry><" + p + "lockscope><" + p + scope + "/></" + p + "lockscope>")
                    .append("<" + p + "locktype><" + p + "write/></" + p + "locktype></" + p + "lockentry>");
        }
        return xml.toString();
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
