package org.gridcache.door.ops;

import java.util.Map;

/** JMX {@code org.gridcache:type=Door}: this door's traffic since it started. */
public interface DoorMXBean {
    String getId();

    String getUrl();

    /** Requests by "METHOD STATUS" (e.g. "GET 302"). */
    Map<String, Long> getRequests();

    long getRequestsTotal();

    /** Reads answered with a redirect to a pool. */
    long getRedirects();

    /** Bytes the door streamed itself (proxy mode). */
    long getProxiedBytes();

    /** Client connections open now. */
    int getOpenConnections();

    /** Requests refused for want of valid credentials, by reason (none while every read is anonymous). */
    Map<String, Long> getAuthenticationFailures();
}
