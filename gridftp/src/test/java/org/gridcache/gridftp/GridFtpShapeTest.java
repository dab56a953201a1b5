package org.gridcache.gridftp;

import org.gridcache.testing.ModuleShape;
import org.junit.jupiter.api.Test;

/** The GridFTP client over its stand-in for what jGlobus needs of an old BouncyCastle. */
class GridFtpShapeTest {
    @Test
    void packagesImportOnlyTheLayersBelowThem() {
        ModuleShape.assertLayered("org.gridcache.gridftp", "jglobus", "");
    }
}
