package org.gridcache.door.namespace;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.junit.jupiter.api.Test;

class HtmlIndexParserTest {
    @Test
    void childrenOfAnIndexAndNothingThatLeavesTheDirectory() {
        String html = "<html><body><a href=\"?C=N\">Name</a><a href=\"../\">Parent</a><a href=\"/abs\">x</a>"
                + "<a href=\"sub/\">sub/</a> <A HREF='f%20one.bin'>f one.bin</A><a href=\"http://other/\">o</a></body></html>";
        assertEquals(List.of("sub", "f one.bin"), HtmlIndexParser.parse(html).stream().map(HtmlIndexParser.Child::name).toList());
    }

    /** An anchor never spans another tag's start: an index of unterminated anchors is read in one pass, not n². */
    @Test
    void unterminatedAnchorsAreNotAnchorsAndWhatFollowsIsStillRead() {
        String html = "<a href=\"x\" ".repeat(100_000) + "<a href=\"real.bin\">real.bin</a>";
        assertEquals(List.of("real.bin"), HtmlIndexParser.parse(html).stream().map(HtmlIndexParser.Child::name).toList());
    }
}
