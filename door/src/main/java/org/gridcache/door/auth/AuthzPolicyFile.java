package org.gridcache.door.auth;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Clock;
import java.util.Objects;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The policy file given with {@code --authz}, reloaded when it changes: at most once a {@link #CHECK_MILLIS} a
 * request looks at the file's modification time and size, and parses it again if either moved. A file that no longer
 * parses (or vanished) is logged and the last good policy stays in force: a typo never opens the door.
 */
public final class AuthzPolicyFile implements Supplier<AuthzPolicy> {
    private static final Logger LOG = LoggerFactory.getLogger(AuthzPolicyFile.class);
    static final long CHECK_MILLIS = 1000;
    private final Path file;
    private final Clock clock;
    private volatile AuthzPolicy policy;
    private volatile long nextCheck;
    private FileTime seenTime;
    private long seenSize = -1;

    /** Reads the file now; a bad file at start-up is an error (the door does not start). */
    public AuthzPolicyFile(Path file, Clock clock) throws IOException {
        this.file = file;
        this.clock = clock;
        this.seenTime = Files.getLastModifiedTime(file);
        this.seenSize = Files.size(file);
        try {
            this.policy = AuthzPolicy.parse(Files.readString(file, StandardCharsets.UTF_8));
        } catch (IllegalArgumentException e) {
            throw new IOException("authorization policy " + file + ", " + e.getMessage());
        }
        this.nextCheck = clock.millis() + CHECK_MILLIS;
        LOG.info("authorization policy {}: {} rules", file, policy.rules().size());
    }

    @Override
    public AuthzPolicy get() {
        long now = clock.millis();
        if (now >= nextCheck) {
            reloadIfChanged(now);
        }
        return policy;
    }

    private synchronized void reloadIfChanged(long now) {
        if (now < nextCheck) {
            return;
        }
        nextCheck = now + CHECK_MILLIS;
        try {
            FileTime time = Files.getLastModifiedTime(file);
            long size = Files.size(file);
            if (Objects.equals(time, seenTime) && size == seenSize) {
                return;
            }
            seenTime = time;
            seenSize = size;
            policy = AuthzPolicy.parse(Files.readString(file, StandardCharsets.UTF_8));
            LOG.info("authorization policy {} reloaded: {} rules", file, policy.rules().size());
        } catch (IOException | IllegalArgumentException e) {
            LOG.error("authorization policy {} not reloaded, the previous one stays in force: {}", file, e.getMessage());
        }
    }
}
