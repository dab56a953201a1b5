package org.gridcache.pool.store;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.ForkJoinTask;

/**
 * What a restart finds in {@code data/} (ARCHITECTURE.md, "Disk layout"), judged without changing anything: the
 * data files with a sidecar beside them (to be proven, {@link Store#lookup}), the partial files to try, and everything
 * else to delete. The tree is walked on a few threads, one {@code data/ab/} subtree per task, and every file's size
 * and modification time come from the walk itself: no file is opened here, since opening 100,000 sidecars was most
 * of a restart's time (18-25 s for 100,000 files, against under 5 s wanted). Sidecars are read afterwards, by the
 * store's verifier or at a file's first use, whichever comes first.
 */
final class StoreRecovery {
    /** A data file with a 64-hex name in its place and a sidecar beside it: complete if the sidecar agrees. */
    record Complete(StoreKey key, long size, long lastModified) {
    }

    /** What was found: data files with sidecars, {@code .blocks} files (judged by the store, which opens them), the rest. */
    record Found(List<Complete> complete, List<Path> blocks, List<Path> unproven) {
    }

    private record Listed(String name, long size, long lastModified) {
    }

    private StoreRecovery() {
    }

    /** Judges the tree under {@code data} on {@code threads} threads, one subtree ({@code data/ab/}) per task. */
    static Found scan(Path data, int threads) throws IOException {
        List<Path> subtrees = new ArrayList<>();
        List<Listed> top = new ArrayList<>();
        try (DirectoryStream<Path> entries = Files.newDirectoryStream(data)) {
            for (Path entry : entries) {
                BasicFileAttributes attrs = Files.readAttributes(entry, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
                if (attrs.isDirectory()) {
                    subtrees.add(entry);
                } else if (attrs.isRegularFile()) {
                    top.add(listed(entry, attrs));
                }
            }
        }
        List<Complete> complete = new ArrayList<>();
        List<Path> blocks = new ArrayList<>();
        List<Path> unproven = new ArrayList<>();
        ForkJoinPool readers = new ForkJoinPool(threads);
        try {
            List<ForkJoinTask<Found>> judged = new ArrayList<>(subtrees.size());
            for (Path subtree : subtrees) {
                judged.add(readers.submit(() -> scanSubtree(data, subtree)));
            }
            judged.add(readers.submit(() -> judge(data, data, top)));
            for (ForkJoinTask<Found> task : judged) {
                Found f;
                try {
                    f = task.join();
                } catch (UncheckedIOException e) {
                    throw e.getCause();
                }
                complete.addAll(f.complete());
                blocks.addAll(f.blocks());
                unproven.addAll(f.unproven());
            }
        } finally {
            readers.shutdown();
        }
        return new Found(complete, blocks, unproven);
    }

    /**
     * The files under {@code data/ab/}, judged directory by directory. In a leaf directory only data files are
     * stat'ed (their size and time are needed); a sidecar only has to exist, so its name suffices. Anything not in
     * its place is stat'ed (a stray directory is walked, so that its files are dropped).
     */
    private static Found scanSubtree(Path data, Path subtree) {
        Map<Path, List<Listed>> byDirectory = new HashMap<>();
        try {
            collect(subtree, 1, byDirectory);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        List<Complete> complete = new ArrayList<>();
        List<Path> blocks = new ArrayList<>();
        List<Path> unproven = new ArrayList<>();
        for (Map.Entry<Path, List<Listed>> dir : byDirectory.entrySet()) {
            Found f = judge(data, dir.getKey(), dir.getValue());
            complete.addAll(f.complete());
            blocks.addAll(f.blocks());
            unproven.addAll(f.unproven());
        }
        return new Found(complete, blocks, unproven);
    }

    /** {@code depth}: 1 for {@code data/ab}, 2 for the leaf {@code data/ab/cd}, more for strays below. */
    private static void collect(Path dir, int depth, Map<Path, List<Listed>> byDirectory) throws IOException {
        List<Listed> files = new ArrayList<>();
        try (DirectoryStream<Path> entries = Files.newDirectoryStream(dir)) {
            for (Path entry : entries) {
                String name = entry.getFileName().toString();
                if (depth == 2 && name.endsWith(Store.SIDECAR)) {
                    files.add(new Listed(name, -1, -1)); // only its existence counts; a directory of this name fails to delete, logged
                    continue;
                }
                BasicFileAttributes attrs = Files.readAttributes(entry, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
                if (attrs.isDirectory()) {
                    collect(entry, depth + 1, byDirectory);
                } else if (attrs.isRegularFile()) {
                    files.add(listed(entry, attrs));
                }
            }
        }
        if (!files.isEmpty()) {
            byDirectory.put(dir, files);
        }
    }

    private static Listed listed(Path file, BasicFileAttributes attrs) {
        return new Listed(file.getFileName().toString(), attrs.size(), attrs.lastModifiedTime().toMillis());
    }

    /** One directory's files: each data file with its sidecar; sidecars with their file; the rest unproven. */
    private static Found judge(Path data, Path dir, List<Listed> files) {
        Map<String, Listed> names = new HashMap<>();
        for (Listed f : files) {
            names.put(f.name(), f);
        }
        List<Complete> complete = new ArrayList<>();
        List<Path> blocks = new ArrayList<>();
        List<Path> unproven = new ArrayList<>();
        for (Listed f : files) {
            String name = f.name();
            Path file = dir.resolve(name);
            if (name.endsWith(Store.SIDECAR)) {
                if (!names.containsKey(name.substring(0, name.length() - Store.SIDECAR.length()))) {
                    unproven.add(file); // an orphan; a sidecar beside its file stands or falls with it
                }
                continue;
            }
            if (name.endsWith(Store.BLOCKS)) {
                blocks.add(file);
                continue;
            }
            StoreKey key = StoreKey.ofHex(name);
            if (key != null && dir.equals(leafOf(data, name)) && names.containsKey(name + Store.SIDECAR)) {
                complete.add(new Complete(key, f.size(), f.lastModified()));
            } else {
                unproven.add(file);
                if (names.containsKey(name + Store.SIDECAR)) {
                    unproven.add(dir.resolve(name + Store.SIDECAR));
                }
            }
        }
        return new Found(complete, blocks, unproven);
    }

    /** The directory a data file of this hex name belongs in: {@code data/ab/cd/}. */
    static Path leafOf(Path data, String hex) {
        return data.resolve(hex.substring(0, 2)).resolve(hex.substring(2, 4));
    }
}
