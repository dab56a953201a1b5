package org.gridcache.common;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.SecureRandom;
import java.util.Base64;

/**
 * The secret shared by doors and pools to sign tickets: 32 random bytes, Base64 in a file of mode 0600. It is
 * distributed as configuration (copy the file to every host), never through ZooKeeper.
 */
public final class TicketKey {
    private TicketKey() {
    }

    /** Reads the key, creating it (0600, atomically, so concurrent starters agree) when the file is absent. */
    public static byte[] loadOrCreate(Path file) throws IOException {
        if (!Files.exists(file)) {
            Files.createDirectories(file.toAbsolutePath().getParent());
            byte[] key = new byte[32];
            new SecureRandom().nextBytes(key);
            Path tmp = Files.createTempFile(file.toAbsolutePath().getParent(), ".ticket", ".tmp",
                    PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
            Files.write(tmp, Base64.getEncoder().encode(key), StandardOpenOption.TRUNCATE_EXISTING);
            try {
                Files.createLink(file, tmp); // fails if another process won the race: then use its key
            } catch (FileAlreadyExistsException e) {
                // another process created it first
            } finally {
                Files.deleteIfExists(tmp);
            }
        }
        return load(file);
    }

    public static byte[] load(Path file) throws IOException {
        String text = Files.readString(file, StandardCharsets.US_ASCII).trim();
        byte[] key;
        try {
            key = Base64.getDecoder().decode(text);
        } catch (IllegalArgumentException e) {
            throw new IOException("ticket key " + file + " is not Base64");
        }
        if (key.length < 32) {
            throw new IOException("ticket key " + file + " is shorter than 256 bits");
        }
        return key;
    }
}
