package org.gridcache.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * docs/reference/ is generated from the code: this test fails when the committed copy differs from what the code
 * says now, and writes it instead when run with {@code -Dreference.regenerate=true} ({@link ReferenceDocs#REGENERATE}).
 */
class ReferenceDocsTest {
    private static final Path DIR = Path.of("..", "docs", "reference"); // surefire runs in dist/

    @Test
    void theCommittedReferenceIsWhatTheCodeSays() throws IOException {
        boolean regenerate = Boolean.getBoolean("reference.regenerate");
        for (Map.Entry<String, String> file : ReferenceDocs.render().entrySet()) {
            Path path = DIR.resolve(file.getKey());
            if (regenerate) {
                Files.createDirectories(DIR);
                Files.writeString(path, file.getValue(), StandardCharsets.UTF_8);
            }
            String committed = Files.exists(path) ? Files.readString(path, StandardCharsets.UTF_8) : "";
            assertEquals(file.getValue(), committed, "docs/reference/" + file.getKey()
                    + " is stale; regenerate it from the repository's root with: " + ReferenceDocs.REGENERATE);
        }
    }

    @Test
    void everyGeneratedLineFitsTheDocsWidth() {
        ReferenceDocs.render().forEach((name, text) -> text.lines().forEach(line -> assertTrue(line.length() <= 120,
                () -> name + " has a line of " + line.length() + " characters: " + line)));
    }
}
