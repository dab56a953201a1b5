package org.gridcache.cli;

import java.io.IOException;
import java.nio.file.Path;
import org.gridcache.testing.ModuleShape;
import org.junit.jupiter.api.Test;

class CliShapeTest {
    @Test
    void classesAndPackagesStaySmall() throws IOException {
        ModuleShape.assertSized(Path.of("src/main/java"));
    }
}
