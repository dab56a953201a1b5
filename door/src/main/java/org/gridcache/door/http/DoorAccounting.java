package org.gridcache.door.http;

import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpFilter;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import org.gridcache.door.ops.DoorStats;

/** The first filter: counts every request by method and the status it got, whatever answered it. */
public final class DoorAccounting extends HttpFilter {
    private static final long serialVersionUID = 1L;
    private final transient DoorStats stats;

    public DoorAccounting(DoorStats stats) {
        this.stats = stats;
    }

    @Override
    protected void doFilter(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws IOException, ServletException {
        boolean failed = true;
        try {
            chain.doFilter(request, response);
            failed = false;
        } finally {
            // an exception that escaped the filters ends as Jetty's 500 or an aborted connection
            stats.request(request.getMethod(), failed && !response.isCommitted() ? 500 : response.getStatus());
        }
    }
}
