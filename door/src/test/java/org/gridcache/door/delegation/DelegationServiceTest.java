package org.gridcache.door.delegation;

import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;
import org.xml.sax.SAXException;

class DelegationServiceTest {
    @Test
    void theSoapParserRefusesDoctypesAndExternalEntities() {
        String xxe = "<?xml version=\"1.0\"?><!DOCTYPE x [<!ENTITY e SYSTEM \"file:///etc/passwd\">]><x>&e;</x>";
        assertThrows(SAXException.class, () -> DelegationService.safeParser()
                .parse(new ByteArrayInputStream(xxe.getBytes(StandardCharsets.UTF_8))));
    }
}
