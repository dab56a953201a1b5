package org.gridcache.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The documents stay readable and their references hold: every relative link of README.md, ARCHITECTURE.md,
 * BENCHMARKS.md and docs/ names a file that exists and, with a {@code #fragment}, one of its headings; every comment
 * of the sources that cites a document's section ({@code docs/admin-guide.md, "Transfer records"}) names a heading of
 * it (or its beginning); README.md and docs/ keep their lines within 120 characters, and README.md within 300 lines.
 */
class DocLinksTest {
    private static final Path ROOT = Path.of("..").toAbsolutePath().normalize(); // surefire runs in dist/
    private static final Pattern LINK = Pattern.compile("\\]\\(([^)\\s]+)\\)");
    private static final Pattern CITATION = Pattern.compile("((?:ARCHITECTURE|README)\\.md|docs/[\\w/.-]+\\.md),\\s+\"([^\"]+)\"");
    private static final Pattern SOURCE = Pattern.compile(".*\\.(java|xml|properties|sh|py|service)$");

    @Test
    void everyRelativeLinkNamesAFileAndHeadingThatExist() throws IOException {
        List<String> broken = new ArrayList<>();
        for (Path doc : documents()) {
            Matcher m = LINK.matcher(withoutCode(Files.readString(doc)));
            while (m.find()) {
                String target = m.group(1);
                if (target.matches("^[a-z]+:.*")) {
                    continue; // http:, https:, mailto:
                }
                int hash = target.indexOf('#');
                Path file = hash == 0 ? doc : doc.getParent().resolve(hash > 0 ? target.substring(0, hash) : target).normalize();
                if (!Files.exists(file)) {
                    broken.add(ROOT.relativize(doc) + ": " + target + " (no such file)");
                } else if (hash >= 0 && file.toString().endsWith(".md")
                        && !anchors(file).contains(target.substring(hash + 1))) {
                    broken.add(ROOT.relativize(doc) + ": " + target + " (no such heading)");
                }
            }
        }
        assertEquals(List.of(), broken);
    }

    @Test
    void everySectionASourceCitesExists() throws IOException {
        List<String> broken = new ArrayList<>();
        try (Stream<Path> files = Files.walk(ROOT)) {
            for (Path source : files.filter(p -> SOURCE.matcher(p.toString()).matches() && !ignored(p)).toList()) {
                Matcher m = CITATION.matcher(Files.readString(source).replaceAll("\\s*\\n\\s*(\\*|#|//)?\\s*", " "));
                while (m.find()) {
                    Path doc = ROOT.resolve(m.group(1));
                    String cited = m.group(2);
                    if (!Files.exists(doc) || headings(doc).stream().noneMatch(h -> h.startsWith(cited))) {
                        broken.add(ROOT.relativize(source) + ": " + m.group(1) + ", \"" + m.group(2) + "\"");
                    }
                }
            }
        }
        assertEquals(List.of(), broken);
    }

    @Test
    void theUsersDocumentsKeepTheirSize() throws IOException {
        List<String> tooLong = new ArrayList<>();
        List<Path> docs = new ArrayList<>(documents());
        docs.removeIf(p -> p.endsWith("ARCHITECTURE.md") || p.endsWith("BENCHMARKS.md"));
        for (Path doc : docs) {
            List<String> lines = Files.readAllLines(doc);
            for (int i = 0; i < lines.size(); i++) {
                if (lines.get(i).length() > 120) {
                    tooLong.add(ROOT.relativize(doc) + ":" + (i + 1) + " has " + lines.get(i).length() + " characters");
                }
            }
        }
        assertEquals(List.of(), tooLong);
        long readme = Files.readAllLines(ROOT.resolve("README.md")).size();
        assertEquals(true, readme <= 300, "README.md has " + readme + " lines; it is a user's guide of at most 300");
    }

    private static List<Path> documents() throws IOException {
        List<Path> docs = new ArrayList<>(List.of(ROOT.resolve("README.md"), ROOT.resolve("ARCHITECTURE.md"),
                ROOT.resolve("BENCHMARKS.md")));
        try (Stream<Path> files = Files.walk(ROOT.resolve("docs"))) {
            files.filter(p -> p.toString().endsWith(".md")).sorted().forEach(docs::add);
        }
        return docs;
    }

    private static boolean ignored(Path p) {
        String s = ROOT.relativize(p).toString();
        return s.startsWith(".") || s.contains("/target/") || s.startsWith("target/") || s.contains("/.git/");
    }

    /** The text without fenced code blocks and inline code, where brackets are not links. */
    private static String withoutCode(String text) {
        return text.replaceAll("(?s)```.*?```", "").replaceAll("`[^`\\n]*`", "");
    }

    private static List<String> headings(Path doc) {
        List<String> out = new ArrayList<>();
        boolean fence = false;
        try {
            for (String line : Files.readAllLines(doc)) {
                if (line.startsWith("```")) {
                    fence = !fence;
                } else if (!fence && line.matches("^#{1,6} .*")) {
                    out.add(line.replaceFirst("^#+ ", "").trim());
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out;
    }

    /** GitHub's anchors: lower case, punctuation dropped, spaces as hyphens. */
    private static Set<String> anchors(Path doc) {
        Set<String> out = new HashSet<>();
        for (String heading : headings(doc)) {
            out.add(heading.toLowerCase(Locale.ROOT).replaceAll("[^\\p{L}\\p{N} _-]", "").replace(' ', '-'));
        }
        return out;
    }
}
