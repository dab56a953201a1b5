package org.gridcache.door.auth.token;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.gridcache.door.MutableClock;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class TokenIssuersTest {
    @TempDir
    Path dir;
    private final TestIssuer atlas = new TestIssuer("https://atlas-auth.example.org");

    private TokenIssuers load(Clock clock) throws IOException {
        return new TokenIssuers(dir.resolve("issuers.json"), null, Duration.ofSeconds(1), clock);
    }

    private void write(String json) throws IOException {
        Path file = dir.resolve("issuers.json");
        Files.writeString(file, json);
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            "{}| a JSON list of issuers is expected",
            "[{\"jwks\": \"a.jwks\"}]| issuer #1: no \"issuer\"",
            "[{\"issuer\": \"https://a\", \"jwks\": \"a.jwks\", \"audience\": []}]| issuer https://a: unknown field 'audience' "
                    + "(use audiences, base-path, groups, issuer, jwks)",
            "[{\"issuer\": \"http://a\"}]| issuer http://a: no \"jwks\" file, and the issuer is not an https URL to discover its keys from",
            "[{\"issuer\": \"https://a\", \"jwks\": \"a.jwks\", \"base-path\": \"atlas\"}]| issuer https://a: \"base-path\" must start with /",
            "[{\"issuer\": \"https://a\", \"jwks\": \"a.jwks\", \"audiences\": \"x\"}]| issuer https://a: \"audiences\" is a list of strings",
            "[{\"issuer\": \"https://a\", \"jwks\": \"a.jwks\", \"groups\": {\"/atlas\": \"atlas\"}}]| issuer https://a: group /atlas "
                    + "must map to a group starting with / (as fqan: rules name it)",
            "[{\"issuer\": \"https://a\", \"jwks\": \"a.jwks\"}, {\"issuer\": \"https://a\", \"jwks\": \"a.jwks\"}]| issuer https://a: listed twice",
            "[{\"issuer\": \"https://a\", \"jwks\": \"a.jwks\", \"groups\": {}}, {\"issuer\": \"https://b\", \"jwks\": \"a.jwks\"}]| "
                    + "issuer https://b: with more than one issuer each needs a \"groups\" map (token group to policy group; {} for none), "
                    + "so that no issuer's groups pass for another's",
            "[{\"issuer\": \"https://a\", \"jwks\": \"missing.jwks\"}]| issuer https://a: jwks DIR/missing.jwks does not exist",
            "[{\"issuer\": \"https://a\", \"jwks\": \"issuers.json\"}]| issuer https://a: jwks DIR/issuers.json is not a JWK set: "
                    + "Invalid JSON object",
            "[{\"issuer\": |not JSON: Unexpected end-of-input within/between Object entries"})
    void aBadFileStopsTheStartWithALineNamingTheEntry(String json, String reason) throws IOException {
        atlas.writeJwks(dir.resolve("a.jwks"));
        write(json);
        IOException e = assertThrows(IOException.class, () -> load(Clock.systemUTC()));
        assertEquals("token issuers " + dir.resolve("issuers.json") + ": " + reason.replace("DIR", dir.toString()),
                e.getMessage().replaceAll(" \\(for Object starting at.*", "").replaceAll("\n.*", ""));
    }

    @Test
    void theFileAndItsJwksAreReadAgainWhenTheyChangeAndABadChangeKeepsTheOld() throws IOException {
        atlas.writeJwks(dir.resolve("a.jwks"));
        write("[{\"issuer\": \"https://atlas-auth.example.org\", \"jwks\": \"a.jwks\"}]");
        MutableClock clock = new MutableClock();
        TokenIssuers issuers = load(clock);
        assertTrue(issuers.of("https://atlas-auth.example.org").isPresent());

        write("[{\"issuer\": \"https://cms-auth.example.org\", \"jwks\": \"a.jwks\", \"base-path\": \"/cms\"}]");
        touch("issuers.json", 1);
        assertTrue(issuers.of("https://atlas-auth.example.org").isPresent()); // not looked at within a second
        clock.advance(2000);
        assertTrue(issuers.of("https://atlas-auth.example.org").isEmpty());
        assertEquals("/cms", issuers.of("https://cms-auth.example.org").orElseThrow().config().basePath());

        write("[{\"issuer\": \"https://cms-auth.example.org\", \"jwks\": \"a.jwks\", \"base-path\": \"cms\"}]");
        touch("issuers.json", 2);
        clock.advance(2000);
        assertEquals("/cms", issuers.of("https://cms-auth.example.org").orElseThrow().config().basePath()); // the bad one is not taken

        TestIssuer rolled = new TestIssuer("https://cms-auth.example.org");
        rolled.writeJwks(dir.resolve("a.jwks"));
        touch("a.jwks", 3);
        write("[{\"issuer\": \"https://cms-auth.example.org\", \"jwks\": \"a.jwks\"}]");
        touch("issuers.json", 3);
        clock.advance(2000);
        JwtVerifier verifier = new JwtVerifier(issuers, () -> "https://door", Clock.systemUTC());
        assertEquals("token:alice-42@https://cms-auth.example.org", verifier.verify(rolled.token("https://door", "read:/"))
                .orElseThrow().name()); // the new keys
    }

    @Test
    void discoveredIssuersNeedNoJwksFile() throws IOException {
        write("[{\"issuer\": \"https://atlas-auth.example.org\"}]");
        assertEquals(List.of(), load(Clock.systemUTC()).of("https://atlas-auth.example.org").orElseThrow().config().audiences());
    }

    private void touch(String name, int seconds) throws IOException {
        Files.setLastModifiedTime(dir.resolve(name), FileTime.from(Instant.parse("2030-01-01T00:00:00Z").plusSeconds(seconds)));
    }
}
