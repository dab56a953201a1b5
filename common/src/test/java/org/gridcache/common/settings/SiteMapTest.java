package org.gridcache.common.settings;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Optional;
import org.junit.jupiter.api.Test;

class SiteMapTest {
    @Test
    void theLongestMatchingPrefixNamesTheSite() {
        SiteMap map = SiteMap.parse("10.0.0.0/8=cern, 10.20.0.0/16=cern-b513,127.0.0.0/8=local,2001:db8::/32=v6site");
        assertEquals(Optional.of("cern"), map.siteOf("10.1.2.3"));
        assertEquals(Optional.of("cern-b513"), map.siteOf("10.20.7.7"));
        assertEquals(Optional.of("local"), map.siteOf("127.0.0.1"));
        assertEquals(Optional.of("local"), map.siteOf("::ffff:127.0.0.1"));
        assertEquals(Optional.of("v6site"), map.siteOf("[2001:db8::1]"));
        assertEquals(Optional.empty(), map.siteOf("192.168.1.1"));
        assertEquals(Optional.empty(), map.siteOf("not-an-address"));
    }

    @Test
    void oddPrefixLengthsMaskTheRightBits() {
        SiteMap map = SiteMap.parse("192.168.4.0/22=lab");
        assertEquals(Optional.of("lab"), map.siteOf("192.168.7.255"));
        assertEquals(Optional.empty(), map.siteOf("192.168.8.0"));
        assertEquals(Optional.of("all"), SiteMap.parse("0.0.0.0/0=all").siteOf("8.8.8.8"));
    }

    @Test
    void badEntriesAreRefusedWithTheReason() {
        assertTrue(assertThrows(IllegalArgumentException.class, () -> SiteMap.parse("10.0.0.0/8")).getMessage().contains("CIDR=site"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> SiteMap.parse("10.0.0.0=cern")).getMessage().contains("not a CIDR"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> SiteMap.parse("10.0.0.0/33=cern")).getMessage().contains("0 to 32"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> SiteMap.parse("cern.ch/8=cern")).getMessage().contains("not an IPv4 or IPv6"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> SiteMap.parse("10.0.0.0/8=ce rn")).getMessage().contains("site name"));
        assertTrue(SiteMap.parse("").isEmpty());
    }

    @Test
    void hostBitsAfterThePrefixAreIgnored() {
        // where tpc.allowed-hosts refuses them (AllowedHostsTest): a site map has always taken the block they lie in
        SiteMap map = SiteMap.parse("10.1.2.3/8=cern,fe80::1/10=link");
        assertEquals(Optional.of("cern"), map.siteOf("10.200.0.1"));
        assertEquals(Optional.of("link"), map.siteOf("fe80::7%eth0"));
        assertEquals(Optional.empty(), map.siteOf("11.0.0.1"));
    }
}
