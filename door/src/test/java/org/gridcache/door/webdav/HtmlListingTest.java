package org.gridcache.door.webdav;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.gridcache.common.origin.OriginEntry;
import org.gridcache.door.namespace.MountPoint;
import org.gridcache.door.namespace.NamespaceEntry;
import org.junit.jupiter.api.Test;

/** The listing page's text: what the system test sees rendered in Chromium, here case by case. */
class HtmlListingTest {
    private static final NamespaceEntry BIG = new NamespaceEntry("/a/b/big.bin", "big.bin", false, 16L << 20, 0, null, null);
    private static final NamespaceEntry SMALL = new NamespaceEntry("/a/b/small.txt", "small.txt", false, 12, 86_400_000L, null, null);
    private static final NamespaceEntry SUB = new NamespaceEntry("/a/b/sub", "sub", true, -1, -1, null, null);

    private static String page(ListingOrder order, NamespaceEntry... children) {
        return HtmlListing.render("/a/b", List.of(children), Optional.empty(), Map.of(), order);
    }

    @Test
    void sizesAreReadableWithTheExactBytesOnHover() {
        String html = page(ListingOrder.DEFAULT, BIG, SMALL);
        assertTrue(html.contains("<td class=\"n\" title=\"16777216 bytes\">16.0 MiB</td>"), html);
        assertTrue(html.contains("<td class=\"n\" title=\"12 bytes\">12 B</td>"), html);
    }

    @Test
    void breadcrumbsLinkEveryCollectionAboveThePage() {
        String html = page(ListingOrder.DEFAULT);
        assertTrue(html.contains("<h1 id=\"crumbs\">Index of <a href=\"/\">/</a><a href=\"/a/\">a</a>/"
                + "<span aria-current=\"page\">b</span>/</h1>"), html);
        assertTrue(html.contains("href=\"/.gridcache/status\""), html);
        assertTrue(html.contains("<link rel=\"stylesheet\" href=\"/.gridcache/style.css\">"), html);
    }

    @Test
    void theServerSortsByTheQueryCollectionsFirst() {
        String bySizeDown = page(ListingOrder.parse("size", "desc"), SMALL, SUB, BIG);
        assertTrue(bySizeDown.indexOf(">sub/<") < bySizeDown.indexOf(">big.bin<")
                && bySizeDown.indexOf(">big.bin<") < bySizeDown.indexOf(">small.txt<"), bySizeDown);
        assertTrue(bySizeDown.contains("<th data-key=\"size\" aria-sort=\"descending\" class=\"n\"><a href=\"?sort=size\">"), bySizeDown);
        String byDateUp = page(ListingOrder.parse("modified", null), SMALL, BIG);
        assertTrue(byDateUp.indexOf(">big.bin<") < byDateUp.indexOf(">small.txt<"), byDateUp);
        assertTrue(byDateUp.contains("<a href=\"?sort=modified&amp;order=desc\">Modified</a>"), byDateUp);
        assertEquals(ListingOrder.DEFAULT, ListingOrder.parse("<script>", "sideways"));
    }

    @Test
    void namesAreEscapedEverywhere() {
        String name = "<img src=x onerror=\"alert('x')\"> <script>.txt";
        String html = HtmlListing.render("/<d>", List.of(new NamespaceEntry("/<d>/" + name, name, false, 1, -1, null, null)),
                Optional.empty(), Map.of(), ListingOrder.DEFAULT);
        assertFalse(html.contains("<img") || html.contains("<script>.") || html.contains("<d>"), html);
        assertTrue(html.contains("&lt;img src=x onerror=&quot;alert(&#39;x&#39;)&quot;&gt; &lt;script&gt;.txt</a>"), html);
    }

    @Test
    void aMountPointShowsItsOriginAndMountDateNeverItsSecrets() {
        OriginEntry atlas = OriginEntry.of("atlas", "/atlas", "https://reader:s3cret@host.example.org:8443/atlas?authz=T0KEN", "none");
        NamespaceEntry mount = NamespaceEntry.virtualCollection("/atlas", "atlas");
        String html = HtmlListing.render("/", List.of(mount), Optional.empty(), Map.of("/atlas", new MountPoint(atlas, 0)),
                ListingOrder.DEFAULT);
        assertTrue(html.contains("<td class=\"origin\"><b>atlas</b> <span class=\"url\">https://host.example.org:8443/atlas</span>"), html);
        assertTrue(html.contains("mounted <time datetime=\"1970-01-01T00:00:00Z\">1970-01-01 00:00:00 UTC</time>"), html);
        assertFalse(html.contains("s3cret") || html.contains("T0KEN"), html);
        String inside = HtmlListing.render("/atlas/x", List.of(), Optional.of(new MountPoint(atlas, 0)), Map.of(), ListingOrder.DEFAULT);
        assertTrue(inside.contains("<p class=\"served\">From origin <b>atlas</b>"), inside);
        assertTrue(inside.contains(" &middot; mounted at <a href=\"/atlas/\">/atlas</a>"), inside);
        assertTrue(inside.contains(" on <time datetime=\"1970-01-01T00:00:00Z\">"), inside);
        assertFalse(inside.contains("s3cret"), inside);
    }
}
