package org.gridcache.gridftp;

import java.io.IOException;
import java.nio.file.Path;
import org.gridcache.testing.ModuleShape;
import org.junit.jupiter.api.Test;

/** The GridFTP client over its stand-in for what jGlobus needs of an old BouncyCastle. */
class GridFtpShapeTest {
    @Test
    void packagesImportOnlyTheLayersBelowThem() {
        ModuleShape.assertLayered("org.gridcache.gridftp", "jglobus", "");
    }

    @Test
    void classesAndPackagesStaySmall() throws IOException {
        ModuleShape.assertSized(Path.of("src/main/java"));
    }
}
