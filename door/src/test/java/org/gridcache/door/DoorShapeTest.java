package org.gridcache.door;

import java.io.IOException;
import java.nio.file.Path;
import org.gridcache.testing.ModuleShape;
import org.junit.jupiter.api.Test;

/**
 * The door's packages, bottom to top (each package-info says why it sits where it does): what a request and its
 * refusal are; who asks (auth, then bearer tokens and macaroons over it, then delegation); what is where (namespace);
 * which pools are there; locks and dead properties, and PROPFIND over them; what an operator sees; reads, writes and
 * third-party copies; the front that routes a request to them; and the door that assembles it all.
 */
class DoorShapeTest {
    @Test
    void packagesImportOnlyTheLayersBelowThem() {
        ModuleShape.assertLayered("org.gridcache.door",
                "exchange",
                "auth",
                "auth.token auth.macaroon",
                "delegation",
                "namespace",
                "select liveness",
                "lock",
                "props",
                "webdav",
                "ops",
                "read",
                "write",
                "tpc",
                "http",
                "");
    }

    @Test
    void classesAndPackagesStaySmall() throws IOException {
        ModuleShape.assertSized(Path.of("src/main/java"));
    }
}
