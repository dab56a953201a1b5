package org.gridcache.simulator;

import com.fasterxml.jackson.core.JsonProcessingException;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Objects;
import java.util.stream.Stream;
import java.util.zip.GZIPInputStream;
import org.gridcache.common.Json;
import org.gridcache.common.transfer.TransferRecord;

/**
 * The reads a cluster really served, from a {@code transfers.jsonl} (one {@link TransferRecord} a line, docs/admin-guide.md,
 * "Transfer records"; a rotated {@code .gz} file too), replayed in the file's order. Give the pools' files: a door's
 * holds only the reads it proxied, which the pools recorded as well.
 *
 * <p>Only complete {@code GET}s answered 200 are reads: a HEAD moves no data, and for a cut-short or ranged read the
 * record's bytes are not the file's size, which the simulator needs to account the stores.
 */
public final class TransferTrace implements Trace {
    private final Path file;

    public TransferTrace(Path file) {
        this.file = file;
    }

    @Override
    public String name() {
        return "transfers " + file.getFileName();
    }

    @Override
    public Stream<Read> reads() {
        BufferedReader in = open();
        long[] line = {0};
        return in.lines()
                .map(text -> parse(text, ++line[0]))
                .filter(Objects::nonNull)
                .onClose(() -> {
                    try {
                        in.close();
                    } catch (IOException e) {
                        throw new UncheckedIOException(e);
                    }
                });
    }

    private BufferedReader open() {
        try {
            InputStream raw = Files.newInputStream(file);
            InputStream body = file.getFileName().toString().endsWith(".gz") ? new GZIPInputStream(raw) : raw;
            return new BufferedReader(new InputStreamReader(body, StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the trace " + file + ": " + e.getMessage(), e);
        }
    }

    /** The read on that line, or null for a line that is not a whole-file read. */
    private Read parse(String text, long line) {
        if (text.isBlank()) {
            return null;
        }
        TransferRecord r;
        try {
            r = Json.mapper().readValue(text, TransferRecord.class);
        } catch (JsonProcessingException e) {
            throw malformed(line, e.getOriginalMessage());
        }
        if (r == null || r.path() == null || r.method() == null) {
            throw malformed(line, "a transfer record needs a method and a path");
        }
        if (!"GET".equals(r.method()) || r.status() != 200 || !r.complete()) {
            return null;
        }
        try {
            return new Read(r.path(), r.bytes());
        } catch (IllegalArgumentException e) {
            throw malformed(line, e.getMessage());
        }
    }

    private IllegalArgumentException malformed(long line, String why) {
        return new IllegalArgumentException(file + " line " + line + ": not a transfer record: " + why);
    }
}
