package org.gridcache.common.origin;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.SeekableByteChannel;
import java.nio.file.DirectoryNotEmptyException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;
import java.nio.file.OpenOption;
import java.nio.file.Path;
import java.nio.file.SecureDirectoryStream;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Objects;
import java.util.Set;

/**
 * Writes below the root of a {@code file://} origin with the walk of {@link LocalOriginRoot}: every directory is
 * reached one component at a time without following a link, and each change is made relative to the directory it
 * applies to ({@code openat}, {@code renameat}, {@code unlinkat}), so a link swapped into the tree never leads a write
 * outside the root. A file is written to a temporary name in its directory and renamed over its final name when
 * complete, so a reader sees the old file or the new one, never a part. A link below the root is never followed:
 * as a source or a parent it is refused ({@link LocalOriginRoot.NotServed}); replaced or deleted it is removed as the
 * entry it is, never its target.
 *
 * <p>Java has no {@code mkdirat}: a collection is created by path, and then checked to be where the walk without links
 * leads; if a link in a parent swapped in meanwhile made it land elsewhere, the directory made there is removed and the
 * request refused.
 */
public final class LocalOriginWrites {
    /** The temporary names of files being written; a reader of the directory may see them, never as the file. */
    public static final String TEMPORARY_PREFIX = ".gridcache-upload-";
    private static final Set<OpenOption> CREATE_NO_FOLLOW = Set.of(StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE,
            LinkOption.NOFOLLOW_LINKS);
    private static final SecureRandom RANDOM = new SecureRandom();
    private final LocalOriginRoot root;

    public LocalOriginWrites(LocalOriginRoot root) {
        this.root = root;
    }

    /** The parent of the entry a write names is missing or not a directory (WebDAV's 409). */
    public static final class MissingParent extends IOException {
        MissingParent(String reason) {
            super(reason);
        }
    }

    /** The destination exists and may not be overwritten (WebDAV's 412). */
    public static final class DestinationExists extends IOException {
        DestinationExists(String reason) {
            super(reason);
        }
    }

    /**
     * A file being written under a temporary name beside {@code names}; {@link #commit} renames it over the final name,
     * {@link #close} without a commit deletes it.
     */
    public final class Upload implements AutoCloseable {
        private final SecureDirectoryStream<Path> dir;
        private final Path temporary;
        private final Path target;
        private final FileChannel channel;
        private boolean done;

        private Upload(SecureDirectoryStream<Path> dir, Path temporary, Path target, FileChannel channel) {
            this.dir = dir;
            this.temporary = temporary;
            this.target = target;
            this.channel = channel;
        }

        public FileChannel channel() {
            return channel;
        }

        /** Flushes to disk and renames over the final name; true when that replaced a file (false: created). */
        public boolean commit() throws IOException {
            channel.force(true);
            channel.close();
            boolean existed = exists(dir, target.toString());
            if (existed && LocalOriginRoot.attributes(dir, target.toString()).isDirectory()) {
                throw new FileAlreadyExistsException(target + " is a collection");
            }
            dir.move(temporary, dir, target);
            done = true;
            return existed;
        }

        /** The committed file's modification time (epoch milliseconds), as a listing of the origin shows it. */
        public long committedMtimeMillis() throws IOException {
            if (!done) {
                throw new IllegalStateException("not committed");
            }
            return LocalOriginRoot.attributes(dir, target.toString()).lastModifiedTime().toMillis();
        }

        @Override
        public void close() throws IOException {
            try {
                channel.close();
                if (!done) {
                    dir.deleteFile(temporary);
                }
            } finally {
                dir.close();
            }
        }
    }

    /** Starts writing the file {@code names}: its parent must exist. */
    public Upload upload(List<String> names) throws IOException {
        requireEntry(names);
        SecureDirectoryStream<Path> dir = parent(names);
        try {
            Path temporary = LocalOriginRoot.path(TEMPORARY_PREFIX + HexFormat.of().formatHex(randomBytes()));
            SeekableByteChannel channel = dir.newByteChannel(temporary, CREATE_NO_FOLLOW);
            if (!(channel instanceof FileChannel file)) {
                channel.close();
                dir.deleteFile(temporary);
                throw new IOException("the file system gives no file channel");
            }
            return new Upload(dir, temporary, LocalOriginRoot.path(last(names)), file);
        } catch (IOException | RuntimeException e) {
            dir.close();
            throw e;
        }
    }

    /** Creates the collection {@code names}; {@link FileAlreadyExistsException} when anything is there. */
    public void mkcol(List<String> names) throws IOException {
        requireEntry(names);
        try (SecureDirectoryStream<Path> dir = parent(names)) {
            Object parentKey = dir.getFileAttributeView(java.nio.file.attribute.BasicFileAttributeView.class).readAttributes().fileKey();
            Path made = root.walkedPath(names);
            Files.createDirectory(made);
            BasicFileAttributes landed = Files.readAttributes(made.getParent(), BasicFileAttributes.class);
            if (!Objects.equals(parentKey, landed.fileKey()) || !exists(dir, last(names))) {
                Files.deleteIfExists(made);
                throw new LocalOriginRoot.NotServed("a symbolic link was swapped into the path while the collection was made");
            }
        }
    }

    /** Deletes {@code names}, a collection with everything in it; links are removed, never followed. */
    public void delete(List<String> names) throws IOException {
        requireEntry(names);
        try (SecureDirectoryStream<Path> dir = parent(names)) {
            String name = last(names);
            LocalOriginRoot.attributes(dir, name); // NoSuchFileException when absent
            deleteEntry(dir, name);
        }
    }

    /** Renames {@code from} to {@code to}; true when that replaced something (only with {@code overwrite}). */
    public boolean move(List<String> from, List<String> to, boolean overwrite) throws IOException {
        requireEntry(from);
        requireEntry(to);
        try (SecureDirectoryStream<Path> source = parentOfSource(from); SecureDirectoryStream<Path> target = parent(to)) {
            LocalOriginRoot.served(LocalOriginRoot.attributes(source, last(from)));
            boolean replaced = clearDestination(target, last(to), overwrite);
            source.move(LocalOriginRoot.path(last(from)), target, LocalOriginRoot.path(last(to)));
            return replaced;
        }
    }

    /**
     * Copies {@code from} to {@code to} (a collection with its members when {@code deep}, else the collection alone);
     * true when that replaced something. Every file is written as an {@link Upload}.
     */
    public boolean copy(List<String> from, List<String> to, boolean overwrite, boolean deep) throws IOException {
        requireEntry(from);
        requireEntry(to);
        BasicFileAttributes what;
        try (SecureDirectoryStream<Path> source = parentOfSource(from)) {
            what = LocalOriginRoot.served(LocalOriginRoot.attributes(source, last(from)));
        }
        boolean replaced;
        try (SecureDirectoryStream<Path> target = parent(to)) {
            replaced = clearDestination(target, last(to), overwrite);
        }
        copyEntry(from, to, what.isDirectory(), deep);
        return replaced;
    }

    private void copyEntry(List<String> from, List<String> to, boolean directory, boolean deep) throws IOException {
        if (!directory) {
            try (LocalOriginRoot.OpenFile in = root.open(from); Upload out = upload(to)) {
                long size = in.channel().size();
                long at = 0;
                while (at < size) {
                    long n = in.channel().transferTo(at, size - at, out.channel());
                    if (n <= 0) {
                        break;
                    }
                    at += n;
                }
                out.commit();
            }
            return;
        }
        mkcol(to);
        if (!deep) {
            return;
        }
        for (LocalOriginRoot.Entry child : root.list(from)) {
            if (child.name().startsWith(TEMPORARY_PREFIX)) {
                continue;
            }
            copyEntry(plus(from, child.name()), plus(to, child.name()), child.attributes().isDirectory(), true);
        }
    }

    /** Makes room for a move or copy to {@code name}; true when something was there (and is now gone). */
    private static boolean clearDestination(SecureDirectoryStream<Path> dir, String name, boolean overwrite) throws IOException {
        if (!exists(dir, name)) {
            return false;
        }
        if (!overwrite) {
            throw new DestinationExists("the destination exists (Overwrite: F)");
        }
        deleteEntry(dir, name);
        return true;
    }

    private static void deleteEntry(SecureDirectoryStream<Path> dir, String name) throws IOException {
        BasicFileAttributes a = LocalOriginRoot.attributes(dir, name);
        Path entry = LocalOriginRoot.path(name);
        if (!a.isDirectory()) {
            dir.deleteFile(entry); // unlinkat: a link goes, its target stays
            return;
        }
        try (SecureDirectoryStream<Path> sub = dir.newDirectoryStream(entry, LinkOption.NOFOLLOW_LINKS)) {
            List<String> children = new ArrayList<>();
            for (Path child : sub) {
                children.add(child.getFileName().toString());
            }
            for (String child : children) {
                deleteEntry(sub, child);
            }
        }
        try {
            dir.deleteDirectory(entry);
        } catch (DirectoryNotEmptyException e) {
            throw new IOException("the collection " + name + " gained entries while it was deleted");
        }
    }

    /** The directory of the last of {@code names}; its absence is a {@link MissingParent}. */
    private SecureDirectoryStream<Path> parent(List<String> names) throws IOException {
        try {
            return root.parentOf(names);
        } catch (NoSuchFileException | NotDirectoryException e) {
            throw new MissingParent("no collection to hold " + last(names));
        }
    }

    /** As {@link #parent}, for a source: its absence is "not found". */
    private SecureDirectoryStream<Path> parentOfSource(List<String> names) throws IOException {
        try {
            return root.parentOf(names);
        } catch (NotDirectoryException e) {
            throw new NoSuchFileException(last(names));
        }
    }

    private static boolean exists(SecureDirectoryStream<Path> dir, String name) throws IOException {
        try {
            LocalOriginRoot.attributes(dir, name);
            return true;
        } catch (NoSuchFileException e) {
            return false;
        }
    }

    private static void requireEntry(List<String> names) throws IOException {
        if (names.isEmpty()) {
            throw new LocalOriginRoot.NotServed("the origin root itself cannot be written");
        }
    }

    private static String last(List<String> names) {
        return names.get(names.size() - 1);
    }

    private static List<String> plus(List<String> names, String name) {
        List<String> out = new ArrayList<>(names);
        out.add(name);
        return out;
    }

    private static byte[] randomBytes() {
        byte[] b = new byte[8];
        RANDOM.nextBytes(b);
        return b;
    }

    /** Writes {@code buffer} whole (a file channel may write less than asked). */
    public static void writeFully(FileChannel channel, ByteBuffer buffer) throws IOException {
        while (buffer.hasRemaining()) {
            channel.write(buffer);
        }
    }
}
