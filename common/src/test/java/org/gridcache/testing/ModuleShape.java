package org.gridcache.testing;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * The shape every module keeps (developers' guide): its packages in one order, each importing only those below it and
 * none in a cycle; no main class over {@value #MAX_LINES} lines, no package over {@value #MAX_CLASSES} classes. Each
 * module's test names its order; a new package fails that test until it is placed.
 */
public final class ModuleShape {
    public static final int MAX_LINES = 400;
    public static final int MAX_CLASSES = 25;

    private ModuleShape() {
    }

    /**
     * The main classes under {@code root} are layered as {@code bottomToTop} says: each entry one rank, the packages of
     * a rank separated by spaces and named relative to {@code root} ({@code ""}: {@code root} itself). A class may
     * depend on its own rank and the ranks below; every package must have a rank; and no packages form a cycle.
     */
    public static void assertLayered(String root, String... bottomToTop) {
        JavaClasses classes = new ClassFileImporter()
                .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_JARS)
                .importPackages(root);
        List<String[]> ranks = Arrays.stream(bottomToTop)
                .map(rank -> Arrays.stream(rank.trim().split("\\s+")).map(p -> p.isEmpty() ? root : root + "." + p).toArray(String[]::new))
                .toList();
        TreeSet<String> placed = ranks.stream().flatMap(Arrays::stream).collect(Collectors.toCollection(TreeSet::new));
        TreeSet<String> present = classes.stream().map(JavaClass::getPackageName).collect(Collectors.toCollection(TreeSet::new));
        assertEquals(present, placed, "the packages of " + root + " and the layers its test names");
        for (int i = 0; i < ranks.size() - 1; i++) {
            String[] above = ranks.subList(i + 1, ranks.size()).stream().flatMap(Arrays::stream).toArray(String[]::new);
            noClasses().that().resideInAnyPackage(ranks.get(i))
                    .should().dependOnClassesThat().resideInAnyPackage(above)
                    .because("a package of " + root + " imports only packages below it (its package-info says where)")
                    .check(classes);
        }
        String parent = root.substring(0, root.lastIndexOf('.'));
        slices().matching(parent + ".(**)").should().beFreeOfCycles().check(classes);
    }

    /** No main class under {@code sources} (a module's {@code src/main/java}) over the line limit, no package over the class limit. */
    public static void assertSized(Path sources) throws IOException {
        assertTrue(Files.isDirectory(sources), sources + " is a source directory");
        List<String> tooLong = new ArrayList<>();
        Map<Path, Integer> perPackage = new TreeMap<>();
        try (Stream<Path> files = Files.walk(sources)) {
            for (Path file : files.filter(f -> f.toString().endsWith(".java")).toList()) {
                String name = file.getFileName().toString();
                if (name.equals("package-info.java") || name.equals("module-info.java")) {
                    continue;
                }
                long lines;
                try (Stream<String> text = Files.lines(file)) {
                    lines = text.count();
                }
                if (lines > MAX_LINES) {
                    tooLong.add(sources.relativize(file) + " (" + lines + " lines)");
                }
                perPackage.merge(sources.relativize(file.getParent()), 1, Integer::sum);
            }
        }
        List<String> tooBig = perPackage.entrySet().stream().filter(e -> e.getValue() > MAX_CLASSES)
                .map(e -> e.getKey() + " (" + e.getValue() + " classes)").toList();
        assertEquals(List.of(), tooLong, "main classes over " + MAX_LINES + " lines: split them by concern");
        assertEquals(List.of(), tooBig, "packages over " + MAX_CLASSES + " classes: split them by concern");
    }
}
