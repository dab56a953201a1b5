package org.gridcache.door.delegation;

import static org.gridcache.door.delegation.DelegationFixtures.ALICE;
import static org.gridcache.door.delegation.DelegationFixtures.fqansOf;
import static org.gridcache.door.delegation.DelegationFixtures.sign;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.gridcache.common.Json;
import org.gridcache.common.security.GridCredentials;
import org.gridcache.door.MutableClock;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Delegated credentials on disk: one file of mode 0600 each, what it holds, restarts, expiry, the earlier format. */
class DelegationFilesTest {
    private final MutableClock clock = DelegationFixtures.clockAtNow();
    @TempDir
    Path tmp;

    private DelegationStore store(Path dir) throws Exception {
        return new DelegationStore(DelegationFixtures.trust(), dir, Duration.ofDays(7), clock);
    }

    private static List<Path> files(Path dir) throws Exception {
        try (var files = Files.list(dir)) {
            return files.sorted().toList();
        }
    }

    @Test
    void aCredentialIsOneFileOfMode0600ThatHoldsItsKeyAndNamesNoDn() throws Exception {
        Path dir = tmp.resolve("delegations");
        DelegationStore store = store(dir);
        Delegation d = store.put(ALICE, "a", sign(store.request(ALICE, "a"), "alice", 3600));
        assertEquals("rwx------", PosixFilePermissions.toString(Files.getPosixFilePermissions(dir)));
        List<Path> files = files(dir);
        assertEquals(1, files.size(), "one file, no temporary file left: " + files);
        Path f = files.get(0);
        assertTrue(f.getFileName().toString().matches("[0-9a-f]{64}\\.json"), f.toString());
        assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(f)));
        Map<?, ?> json = Json.mapper().readValue(f.toFile(), Map.class);
        assertEquals(ALICE, json.get("dn"));
        assertEquals("a", json.get("id"));
        assertEquals(d.notAfter().toString(), json.get("notAfter"));
        assertEquals(List.of(), json.get("fqans"), "a plain proxy's delegation has no VOMS attributes");
        assertEquals(d.credential().getKey(), GridCredentials.fromPem((String) json.get("credential")).getKey(),
                "the private key the door made is in the file");
    }

    @Test
    void aRestartedDoorFindsItsCredentialsUntilTheyExpireAndDestroyRemovesTheFile() throws Exception {
        Path dir = tmp.resolve("delegations");
        DelegationStore first = store(dir);
        first.put(ALICE, "keep", sign(first.request(ALICE, "keep"), "alice", 3600));
        first.put(ALICE, "brief", sign(first.request(ALICE, "brief"), "alice", 60));
        first.put(ALICE, "gone", sign(first.request(ALICE, "gone"), "alice", 3600));
        assertTrue(first.destroy(ALICE, "gone"));
        assertEquals(2, files(dir).size(), "destroy removes the file");

        clock.advance(Duration.ofMinutes(2).toMillis());
        DelegationStore again = store(dir);
        assertTrue(again.get(ALICE, "keep").isPresent());
        assertEquals(first.get(ALICE, "keep").orElseThrow().credential().getKey(), again.get(ALICE, "keep").orElseThrow().credential().getKey());
        assertTrue(again.get(ALICE, "brief").isEmpty());
        assertTrue(again.get(ALICE, "gone").isEmpty());
        assertEquals(1, files(dir).size(), "the expired file is deleted at start");
        assertTrue(again.destroy(ALICE, "keep"));
        assertEquals(List.of(), files(dir));
    }

    @Test
    void aFileOfTheEarlierFormatIsReadAndRewrittenAsJson() throws Exception {
        Path dir = tmp.resolve("delegations");
        DelegationStore first = store(dir);
        Delegation d = first.put(ALICE, "old", sign(first.request(ALICE, "old"), "alice-atlas", 3600));
        DelegationFiles files = new DelegationFiles(dir);
        Path json = files.fileOf(ALICE, "old", DelegationFiles.SUFFIX);
        Path legacy = files.fileOf(ALICE, "old", DelegationFiles.LEGACY_SUFFIX);
        Files.delete(json);
        Files.writeString(legacy, "dn=" + ALICE + "\nid=old\nnotAfter=" + d.notAfter().getEpochSecond() + "\n"
                + GridCredentials.toPem(d.credential()), StandardCharsets.US_ASCII);
        Files.setPosixFilePermissions(legacy, PosixFilePermissions.fromString("rw-------"));

        DelegationStore again = store(dir);
        Delegation read = again.get(ALICE, "old").orElseThrow();
        assertEquals(d.notAfter().getEpochSecond(), read.notAfter().getEpochSecond());
        assertEquals(d.credential().getKey(), read.credential().getKey());
        assertEquals(fqansOf("alice-atlas"), read.fqans(), "its VOMS attributes are read from its chain");
        assertEquals("old", again.forSession(ALICE, fqansOf("alice-atlas")).orElseThrow().id());
        assertTrue(again.forSession(ALICE, List.of()).isEmpty(), "not taken for a DN-only delegation");
        assertFalse(Files.exists(legacy), "the old file is gone");
        assertEquals(List.of(json), files(dir));
        assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(json)));
        assertEquals(read.fqans(), Json.mapper().readValue(json.toFile(), Map.class).get("fqans"), "rewritten with them");
    }

    @Test
    void aJsonFileWrittenBeforeDelegationsCarriedFqansGetsThemFromItsChain() throws Exception {
        Path dir = tmp.resolve("delegations");
        DelegationStore first = store(dir);
        Delegation d = first.put(ALICE, "v1", sign(first.request(ALICE, "v1"), "alice-atlas", 3600));
        Path json = new DelegationFiles(dir).fileOf(ALICE, "v1", DelegationFiles.SUFFIX);
        @SuppressWarnings("unchecked")
        Map<String, Object> content = Json.mapper().readValue(json.toFile(), Map.class);
        content.remove("fqans");
        Files.write(json, Json.bytes(content));

        DelegationStore again = store(dir);
        assertEquals(d.fqans(), again.get(ALICE, "v1").orElseThrow().fqans());
        assertEquals(d.fqans(), Json.mapper().readValue(json.toFile(), Map.class).get("fqans"), "the file is rewritten");
    }

    @Test
    void anUnreadableFileIsSkippedAndTheOthersLoad() throws Exception {
        Path dir = tmp.resolve("delegations");
        DelegationStore first = store(dir);
        first.put(ALICE, "good", sign(first.request(ALICE, "good"), "alice", 3600));
        Files.writeString(dir.resolve("0".repeat(64) + DelegationFiles.SUFFIX), "{not json");
        assertTrue(store(dir).get(ALICE, "good").isPresent());
    }
}
