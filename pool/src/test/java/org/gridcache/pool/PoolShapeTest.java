package org.gridcache.pool;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import java.io.IOException;
import java.nio.file.Path;
import org.gridcache.testing.ModuleShape;
import org.junit.jupiter.api.Test;

/**
 * The pool's packages, bottom to top (each package-info says why it sits where it does): the disk (store); the HTTP
 * vocabulary, a failed fetch as clients hear it, TLS, the one HTTP client and receive memory (http); users' delegated
 * credentials (access); the origins, their fetchers' sink and the permission cache (origin); the GridFTP origins
 * (origin.gridftp); asking other pools (peer); hit or fetch, from the origin or a peer (fetch); client transfers and
 * their counters (mover); JMX and metrics (ops); third-party copies (tpc); the request path (serve); and the pool
 * that assembles it all.
 */
class PoolShapeTest {
    @Test
    void packagesImportOnlyTheLayersBelowThem() {
        ModuleShape.assertLayered("org.gridcache.pool",
                "store",
                "http",
                "access",
                "origin",
                "origin.gridftp",
                "peer",
                "fetch",
                "mover",
                "ops",
                "tpc",
                "serve",
                "");
    }

    /** One HTTP client in the pool, Netty's ({@code http.PoolClient}): the JDK's has no part in it. */
    @Test
    void thePoolUsesNoJdkHttpClient() {
        JavaClasses pool = new ClassFileImporter().withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                .importPackages("org.gridcache.pool");
        noClasses().should().dependOnClassesThat().resideInAPackage("java.net.http..")
                .because("the pool's requests go through http.PoolClient, on its own event loops").check(pool);
    }

    /** Nor Jetty's: the door's server and client stay in the door. */
    @Test
    void thePoolUsesNoJetty() {
        JavaClasses pool = new ClassFileImporter().withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                .importPackages("org.gridcache.pool");
        noClasses().should().dependOnClassesThat().resideInAPackage("org.eclipse.jetty..")
                .because("the pool's requests go through http.PoolClient, on its own event loops").check(pool);
    }

    @Test
    void classesAndPackagesStaySmall() throws IOException {
        ModuleShape.assertSized(Path.of("src/main/java"));
    }
}
