package org.gridcache.common.origin;

import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;

/**
 * The directories a node lets {@code file://} origins lie in ({@code --file-origin-root}, repeatable), as dCache's
 * and XRootD's export lists: whoever may write the mount table chooses an origin's URL, but only the node's own
 * administrator chooses which of its directories may be read through it (the pool's store and keys, the host key).
 * Without any, no {@code file://} origin is served. Door and pool both resolve a mount's root here, so what one
 * refuses the other refuses too.
 *
 * <p>The allowed directories are resolved to their real paths once, at start; an origin's root is resolved to its
 * real path when used and must be one of them or lie below one, compared by whole path components ({@code /x/data2}
 * does not lie below {@code /x/data}). From the allowed directory on, the walk follows no link
 * ({@link LocalOriginRoot}): a link swapped in after the check fails the walk instead of leading elsewhere.
 */
public final class FileOriginRoots {
    /** The option that sets them, for the reasons given to clients and operators. */
    public static final String OPTION = "--file-origin-root";
    /** No {@code file://} origin is served: the default of {@code gridcache door} and {@code gridcache pool}. */
    public static final FileOriginRoots NONE = new FileOriginRoots(List.of());

    private final List<Path> roots;

    private FileOriginRoots(List<Path> roots) {
        this.roots = List.copyOf(roots);
    }

    /**
     * The allowed directories, each resolved to its real path now; throws {@link IOException} naming the option and
     * the directory when one is missing or not a directory (a typo should stop the node, not refuse every read).
     */
    public static FileOriginRoots of(Collection<Path> dirs) throws IOException {
        List<Path> real = new ArrayList<>();
        for (Path dir : dirs) {
            Path resolved;
            try {
                resolved = dir.toRealPath();
            } catch (IOException e) {
                throw new IOException(OPTION + " " + dir + ": no such directory");
            }
            if (!Files.isDirectory(resolved)) {
                throw new IOException(OPTION + " " + dir + ": not a directory");
            }
            real.add(resolved);
        }
        // the deepest first: an origin is walked without links from the allowed directory nearest to it
        real.sort(Comparator.comparingInt(Path::getNameCount).reversed());
        return new FileOriginRoots(real);
    }

    /** The allowed directories (real paths), deepest first. */
    public List<Path> directories() {
        return roots;
    }

    /** A {@code file://} origin whose root this node does not allow: the one-line reason names {@link #OPTION}. */
    public static final class NotAllowed extends IOException {
        NotAllowed(String reason) {
            super(reason);
        }
    }

    /**
     * The root of the {@code file://} origin {@code url} (as in the mount table), to be read from an allowed
     * directory without following links. Throws {@link NotAllowed} when its real path lies in no allowed directory,
     * {@link java.nio.file.NoSuchFileException} when it does not exist, {@link IllegalArgumentException} when the URL
     * names no local path. Nothing below the root is opened here.
     */
    public LocalOriginRoot root(String url) throws IOException {
        Path named;
        try {
            named = Path.of(URI.create(url)).toAbsolutePath().normalize();
        } catch (java.nio.file.FileSystemNotFoundException e) {
            throw new IllegalArgumentException("not a file:// URL: " + url);
        }
        if (roots.isEmpty()) {
            throw new NotAllowed("this node has no " + OPTION + " (it serves no file:// origin)");
        }
        Path real = named.toRealPath();
        for (Path allowed : roots) {
            if (real.startsWith(allowed)) {
                List<String> base = new ArrayList<>();
                allowed.relativize(real).forEach(name -> {
                    if (!name.toString().isEmpty()) {
                        base.add(name.toString());
                    }
                });
                return LocalOriginRoot.within(named, allowed, base);
            }
        }
        throw new NotAllowed("the origin directory is not at or below a " + OPTION + " of this node");
    }

    @Override
    public String toString() {
        return roots.isEmpty() ? "none" : roots.toString();
    }
}
