package org.gridcache.zk;

import java.io.IOException;
import java.nio.file.Path;
import org.gridcache.testing.ModuleShape;
import org.junit.jupiter.api.Test;

/** zk-config's packages, bottom to top: the tree's paths; who may touch them; the client and the records; locks and properties. */
class ZkShapeTest {
    @Test
    void packagesImportOnlyTheLayersBelowThem() {
        ModuleShape.assertLayered("org.gridcache.zk", "layout", "security", "", "lock props");
    }

    @Test
    void classesAndPackagesStaySmall() throws IOException {
        ModuleShape.assertSized(Path.of("src/main/java"));
    }
}
