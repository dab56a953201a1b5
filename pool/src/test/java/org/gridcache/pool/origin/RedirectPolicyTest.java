package org.gridcache.pool.origin;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.net.URI;
import java.util.List;
import org.gridcache.common.settings.ClusterSettings;
import org.gridcache.common.origin.OriginEntry;
import org.junit.jupiter.api.Test;

class RedirectPolicyTest {
    private final List<OriginEntry> mounts = List.of(
            OriginEntry.of("dcache", "/atlas", "https://head.example.org:2880/pnfs/atlas", "user"),
            OriginEntry.of("gsi", "/cms", "gsiftp://gridftp.example.org/cms", "user"),
            OriginEntry.of("local", "/local", "file:///srv/data"));
    private final RedirectPolicy policy = new RedirectPolicy(() -> mounts,
            () -> ClusterSettings.of(java.util.Map.of("pool.redirect-hosts", "Data1.Example.NET, *.pools.example.com"))
                    .get(ClusterSettings.Keys.REDIRECT_HOSTS));
    private final URI head = URI.create("https://head.example.org:2880/pnfs/atlas/f");

    @Test
    void followsTheSameHostTheOriginsHostsAndTheListedOnes() {
        assertNull(policy.refusal(head, URI.create("https://head.example.org:8443/f")));
        assertNull(policy.refusal(head, URI.create("https://gridftp.example.org/f")));
        assertNull(policy.refusal(head, URI.create("https://data1.example.net/f")));
        assertNull(policy.refusal(head, URI.create("https://pool7.pools.example.com:1094/f")));
        assertNull(policy.refusal(URI.create("http://head.example.org/f"), URI.create("https://head.example.org/f")));
    }

    @Test
    void neverFromHttpsToHttpEvenOnTheSameHost() {
        assertEquals("redirected from https to http, which the pool never follows",
                policy.refusal(head, URI.create("http://head.example.org:2880/f")));
        assertEquals("redirected from https to http, which the pool never follows",
                policy.refusal(head, URI.create("http://data1.example.net/f")));
    }

    @Test
    void neverToAnotherHostOrScheme() {
        assertEquals("redirected to evil.example.org, which is neither an origin of the mount table nor in pool.redirect-hosts",
                policy.refusal(head, URI.create("https://evil.example.org/f")));
        assertEquals("redirected to pools.example.com, which is neither an origin of the mount table nor in pool.redirect-hosts",
                policy.refusal(head, URI.create("https://pools.example.com/f")));
        assertEquals("redirected to xpools.example.com.evil.org, which is neither an origin of the mount table nor in pool.redirect-hosts",
                policy.refusal(head, URI.create("https://xpools.example.com.evil.org/f")));
        assertEquals("redirected to a file URL", policy.refusal(head, URI.create("file:///etc/passwd")));
        assertEquals("redirected to a gsiftp URL", policy.refusal(head, URI.create("gsiftp://gridftp.example.org/f")));
    }

    @Test
    void theAllowListRefusesWhatIsNotAHost() {
        assertEquals(List.of("a.example.org", "*.b.example.org"), ClusterSettings.Keys.REDIRECT_HOSTS.parse(" A.example.org,*.b.example.org,"));
        org.junit.jupiter.api.Assertions.assertThrows(IllegalArgumentException.class,
                () -> ClusterSettings.Keys.REDIRECT_HOSTS.parse("https://a.example.org/"));
        org.junit.jupiter.api.Assertions.assertThrows(IllegalArgumentException.class,
                () -> ClusterSettings.Keys.REDIRECT_HOSTS.parse("*"));
    }
}
