package org.gridcache.common.origin;

import java.io.IOException;
import java.net.URI;
import java.nio.channels.FileChannel;
import java.nio.channels.SeekableByteChannel;
import java.nio.file.DirectoryStream;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;
import java.nio.file.Path;
import java.nio.file.SecureDirectoryStream;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributeView;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Set;

/**
 * The root directory of a {@code file://} origin, walked one component at a time without following a symbolic link
 * anywhere below it ({@code openat} with {@code O_NOFOLLOW} through {@link SecureDirectoryStream}): a path resolves
 * only to the directory entries it names, so nothing outside the root can be reached, whatever is swapped in the
 * tree meanwhile. Only directories and regular files are served; a symbolic link, a FIFO, a socket or a device
 * below the root is {@link NotServed}. The walk starts at the allowed directory that holds the root
 * ({@link FileOriginRoots}, the node administrator's choice, which may be reached through links) and follows no link
 * from there, so a root the mount table names through a link is read where it was when it was checked, or not at all.
 *
 * <p>Door and pool share this walk, so what a listing shows is exactly what a pool will read. A hard link is an
 * ordinary directory entry and cannot be told apart; Linux's {@code fs.protected_hardlinks} keeps users from
 * linking files they could not read themselves.
 */
public final class LocalOriginRoot {
    private static final Set<java.nio.file.OpenOption> READ_NO_FOLLOW = Set.of(StandardOpenOption.READ, LinkOption.NOFOLLOW_LINKS);

    /** The root as the mount table names it: what a file's URL is compared with. */
    private final Path root;
    /** The directory the walk starts from, opened following links (the node's administrator chose it). */
    private final Path anchor;
    /** From {@link #anchor} to the root, walked without links. */
    private final List<String> base;

    private LocalOriginRoot(Path root, Path anchor, List<String> base) {
        this.root = root;
        this.anchor = anchor;
        this.base = List.copyOf(base);
    }

    /** A root opened as named, links and all: for tests; nodes go through {@link FileOriginRoots}. */
    static LocalOriginRoot of(URI url) {
        return of(Path.of(url));
    }

    static LocalOriginRoot of(Path root) {
        Path named = root.toAbsolutePath().normalize();
        return new LocalOriginRoot(named, named, List.of());
    }

    /** The root {@code named}, reached from the allowed directory {@code anchor} through {@code base} without links. */
    static LocalOriginRoot within(Path named, Path anchor, List<String> base) {
        return new LocalOriginRoot(named, anchor, base);
    }

    /** The root as the mount table names it. */
    public Path path() {
        return root;
    }

    /** Where the walk reaches {@code names}, as a path from the allowed directory (for the calls that have no *at form). */
    Path walkedPath(List<String> names) {
        Path p = anchor;
        for (String b : base) {
            p = p.resolve(b);
        }
        for (String n : names) {
            p = p.resolve(n);
        }
        return p;
    }

    /**
     * The components of {@code file} below the root named by the {@code file://} URL {@code rootUrl}, or null when it
     * does not lie below it (lexically: no component of the result is "." or ".."). The root itself is the empty list.
     */
    public static List<String> below(URI rootUrl, URI file) {
        Path root;
        Path path;
        try {
            root = Path.of(rootUrl).toAbsolutePath().normalize();
            path = Path.of(file);
        } catch (IllegalArgumentException | java.nio.file.FileSystemNotFoundException e) {
            return null;
        }
        if (!path.isAbsolute() || !path.startsWith(root)) {
            return null;
        }
        List<String> names = new ArrayList<>();
        for (Path name : root.relativize(path)) {
            String s = name.toString();
            if (s.isEmpty()) {
                continue;
            }
            if (s.equals(".") || s.equals("..")) {
                return null;
            }
            names.add(s);
        }
        return names;
    }

    /** A directory entry that is not served, with the one-line reason a client may see. */
    public static final class NotServed extends IOException {
        public NotServed(String reason) {
            super(reason);
        }
    }

    /** A regular file opened for reading, and what {@code lstat} said of it just before it was opened. */
    public record OpenFile(FileChannel channel, BasicFileAttributes attributes) implements AutoCloseable {
        @Override
        public void close() throws IOException {
            channel.close();
        }
    }

    /** A served entry: its name and its attributes (a directory or a regular file, never a link). */
    public record Entry(String name, BasicFileAttributes attributes) {
    }

    /** The attributes of the entry at {@code names} (the root for an empty list). */
    public BasicFileAttributes stat(List<String> names) throws IOException {
        if (names.isEmpty()) {
            try (SecureDirectoryStream<Path> dir = openRoot()) {
                return dir.getFileAttributeView(BasicFileAttributeView.class).readAttributes();
            }
        }
        try (SecureDirectoryStream<Path> dir = parentOf(names)) {
            String name = names.get(names.size() - 1);
            return served(attributes(dir, name));
        }
    }

    /** The directory at {@code names}: its directories and regular files; links and special files are left out. */
    public List<Entry> list(List<String> names) throws IOException {
        try (SecureDirectoryStream<Path> dir = openDirectory(names)) {
            List<Entry> out = new ArrayList<>();
            for (Path child : dir) {
                String name = child.getFileName().toString();
                try {
                    BasicFileAttributes a = attributes(dir, name);
                    if (a.isDirectory() || a.isRegularFile()) {
                        out.add(new Entry(name, a));
                    }
                } catch (IOException e) {
                    // vanished meanwhile or unreadable: not part of the listing
                }
            }
            return out;
        }
    }

    /**
     * Opens the regular file at {@code names} for reading. The entry is checked before it is opened (so a FIFO is
     * never opened, which would block), opened with {@code O_NOFOLLOW} (so a link swapped in meanwhile fails the
     * open), and checked again after (so the file opened is the one checked).
     */
    public OpenFile open(List<String> names) throws IOException {
        if (names.isEmpty()) {
            throw new NotServed("the origin root is a directory, not a file");
        }
        try (SecureDirectoryStream<Path> dir = parentOf(names)) {
            String name = names.get(names.size() - 1);
            BasicFileAttributes before = served(attributes(dir, name));
            if (!before.isRegularFile()) {
                throw new NotServed("not a regular file");
            }
            SeekableByteChannel channel;
            try {
                channel = dir.newByteChannel(path(name), READ_NO_FOLLOW);
            } catch (NoSuchFileException | java.nio.file.AccessDeniedException e) {
                throw e;
            } catch (FileSystemException e) {
                served(attributes(dir, name)); // ELOOP: a link now
                throw e;
            }
            try {
                BasicFileAttributes after = attributes(dir, name);
                if (!after.isRegularFile() || !Objects.equals(before.fileKey(), after.fileKey())) {
                    throw new NotServed("the file was replaced while it was opened");
                }
                if (!(channel instanceof FileChannel file)) {
                    throw new IOException("the file system gives no file channel for " + name);
                }
                return new OpenFile(file, before);
            } catch (IOException | RuntimeException e) {
                channel.close();
                throw e;
            }
        }
    }

    SecureDirectoryStream<Path> openRoot() throws IOException {
        DirectoryStream<Path> stream = Files.newDirectoryStream(anchor);
        if (!(stream instanceof SecureDirectoryStream<Path> secure)) {
            stream.close();
            throw new NotServed("the file system of this origin cannot be read without following links (no openat)");
        }
        return walk(secure, base);
    }

    /** From {@code dir} down {@code names}, one component at a time; {@code dir} is closed on the way, or on failure. */
    private SecureDirectoryStream<Path> walk(SecureDirectoryStream<Path> dir, List<String> names) throws IOException {
        try {
            for (String name : names) {
                SecureDirectoryStream<Path> next = descend(dir, name);
                dir.close();
                dir = next;
            }
            return dir;
        } catch (IOException | RuntimeException e) {
            dir.close();
            throw e;
        }
    }

    SecureDirectoryStream<Path> openDirectory(List<String> names) throws IOException {
        if (names.isEmpty()) {
            return openRoot();
        }
        SecureDirectoryStream<Path> parent = parentOf(names);
        try (parent) {
            return descend(parent, names.get(names.size() - 1));
        }
    }

    /** The directory that holds the last of {@code names}, reached one component at a time. */
    SecureDirectoryStream<Path> parentOf(List<String> names) throws IOException {
        return walk(openRoot(), names.subList(0, Math.max(0, names.size() - 1)));
    }

    static SecureDirectoryStream<Path> descend(SecureDirectoryStream<Path> dir, String name) throws IOException {
        BasicFileAttributes a = served(attributes(dir, name));
        if (!a.isDirectory()) {
            throw new NotDirectoryException(name);
        }
        try {
            return dir.newDirectoryStream(path(name), LinkOption.NOFOLLOW_LINKS);
        } catch (NoSuchFileException | java.nio.file.AccessDeniedException e) {
            throw e;
        } catch (FileSystemException e) {
            served(attributes(dir, name)); // ELOOP: a link swapped in since the check
            throw e;
        }
    }

    /** {@code a} when it is a directory or a regular file; else why it is not served. */
    static BasicFileAttributes served(BasicFileAttributes a) throws NotServed {
        if (a.isSymbolicLink()) {
            throw new NotServed("a symbolic link below the origin root is not followed");
        }
        if (!a.isDirectory() && !a.isRegularFile()) {
            throw new NotServed("not a regular file");
        }
        return a;
    }

    /** {@code lstat} of {@code name} relative to {@code dir}. */
    static BasicFileAttributes attributes(SecureDirectoryStream<Path> dir, String name) throws IOException {
        return dir.getFileAttributeView(path(name), BasicFileAttributeView.class, LinkOption.NOFOLLOW_LINKS).readAttributes();
    }

    /** One directory entry's name as a relative path; anything that would not be one entry is "not found". */
    static Path path(String name) throws NoSuchFileException {
        if (name.isEmpty() || name.equals(".") || name.equals("..") || name.indexOf('/') >= 0 || name.indexOf('\0') >= 0) {
            throw new NoSuchFileException(name);
        }
        try {
            return Path.of(name);
        } catch (InvalidPathException e) {
            throw new NoSuchFileException(name);
        }
    }
}
