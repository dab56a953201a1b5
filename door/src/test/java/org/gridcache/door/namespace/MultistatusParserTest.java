package org.gridcache.door.namespace;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

class MultistatusParserTest {
    @Test
    void readsDecodedHrefsAndThePropertiesOfThe200Propstat() {
        String xml = """
                <?xml version="1.0"?>
                <multistatus xmlns="DAV:"><response><href>https://se.example.org:443/data/a%20b/</href>
                <propstat><prop><resourcetype><collection/></resourcetype></prop><status>HTTP/1.1 200 OK</status></propstat></response>
                <response><href>/data/a%20b/f%C3%BC.root</href><propstat><prop><resourcetype/>
                <getcontentlength>42</getcontentlength><getlastmodified>Mon, 02 Nov 2026 10:00:00 GMT</getlastmodified>
                <getetag>"x1"</getetag></prop><status>HTTP/1.1 200 OK</status></propstat>
                <propstat><prop><getcontenttype/></prop><status>HTTP/1.1 404 Not Found</status></propstat></response></multistatus>
                """;
        List<MultistatusParser.Item> items = MultistatusParser.parse(xml.getBytes(StandardCharsets.UTF_8));
        assertEquals(2, items.size());
        assertEquals("/data/a b", items.get(0).hrefPath());
        assertTrue(items.get(0).collection());
        MultistatusParser.Item file = items.get(1);
        assertEquals("/data/a b/fü.root", file.hrefPath());
        assertFalse(file.collection());
        assertEquals(42, file.size());
        assertEquals(1793613600000L, file.mtimeMillis());
        assertEquals("\"x1\"", file.etag());
    }

    /** RFC 4331's pair on a collection; one number alone, a negative one or the pair in a 404 propstat is no quota. */
    @Test
    void readsQuotaOnlyWhenBothNumbersCameIn200() {
        String xml = """
                <?xml version="1.0"?>
                <d:multistatus xmlns:d="DAV:">
                <d:response><d:href>/both/</d:href><d:propstat><d:prop><d:resourcetype><d:collection/></d:resourcetype>
                <d:quota-available-bytes>1000</d:quota-available-bytes><d:quota-used-bytes>24</d:quota-used-bytes></d:prop>
                <d:status>HTTP/1.1 200 OK</d:status></d:propstat></d:response>
                <d:response><d:href>/one/</d:href><d:propstat><d:prop><d:resourcetype><d:collection/></d:resourcetype>
                <d:quota-available-bytes>1000</d:quota-available-bytes></d:prop><d:status>HTTP/1.1 200 OK</d:status></d:propstat>
                <d:propstat><d:prop><d:quota-used-bytes/></d:prop><d:status>HTTP/1.1 404 Not Found</d:status></d:propstat></d:response>
                <d:response><d:href>/negative/</d:href><d:propstat><d:prop><d:resourcetype><d:collection/></d:resourcetype>
                <d:quota-available-bytes>-3</d:quota-available-bytes><d:quota-used-bytes>24</d:quota-used-bytes></d:prop>
                <d:status>HTTP/1.1 200 OK</d:status></d:propstat></d:response>
                <d:response><d:href>/none/</d:href><d:propstat><d:prop><d:resourcetype><d:collection/></d:resourcetype></d:prop>
                <d:status>HTTP/1.1 200 OK</d:status></d:propstat><d:propstat><d:prop><d:quota-available-bytes/>
                <d:quota-used-bytes/></d:prop><d:status>HTTP/1.1 404 Not Found</d:status></d:propstat></d:response>
                </d:multistatus>
                """;
        List<MultistatusParser.Item> items = MultistatusParser.parse(xml.getBytes(StandardCharsets.UTF_8));
        assertEquals(new Quota(1000, 24), items.get(0).quota());
        assertEquals(null, items.get(1).quota());
        assertEquals(null, items.get(2).quota());
        assertEquals(null, items.get(3).quota());
    }

    @Test
    void refusesDoctypesExternalEntitiesAndDocumentsThatAreNoMultistatus() {
        String xxe = "<?xml version=\"1.0\"?><!DOCTYPE m [<!ENTITY e SYSTEM \"file:///etc/passwd\">]>"
                + "<multistatus xmlns=\"DAV:\"><response><href>&e;</href></response></multistatus>";
        assertThrows(IllegalArgumentException.class, () -> MultistatusParser.parse(xxe.getBytes(StandardCharsets.UTF_8)));
        assertThrows(IllegalArgumentException.class, () -> MultistatusParser.parse("<html>".getBytes(StandardCharsets.UTF_8)));
        // found by MultistatusFuzzTest: the JDK's parser threw MissingResourceException (InvalidCharInDTD), a 500
        String badDtd = "<!DOCTYPE x[" + "[".repeat(80);
        assertThrows(IllegalArgumentException.class, () -> MultistatusParser.parse(badDtd.getBytes(StandardCharsets.UTF_8)));
        assertThrows(IllegalArgumentException.class, () -> MultistatusParser.parse("<a xmlns='x'/>".getBytes(StandardCharsets.UTF_8)));
    }
}
