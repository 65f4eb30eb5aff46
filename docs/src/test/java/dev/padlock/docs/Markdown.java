package dev.padlock.docs;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * One Markdown page of the repository as the documentation checks read it: its links and anchors outside code, and
 * its fenced code blocks. Only what this repository's pages use is understood: inline links, ATX headings, explicit
 * {@code <a id>} anchors and fences of three backticks.
 */
record Markdown(Path file, List<String> lines) {

    /** {@code [text](target)} or {@code [text](target "title")}; images too. */
    private static final Pattern LINK = Pattern.compile("\\[[^\\]]*\\]\\(([^)\\s]+)(?:\\s+\"[^\"]*\")?\\)");

    private static final Pattern INLINE_CODE = Pattern.compile("`+[^`]*`+");
    private static final Pattern HEADING = Pattern.compile("^#{1,6}\\s+(.*?)\\s*#*\\s*$");
    private static final Pattern EXPLICIT_ANCHOR = Pattern.compile("<a\\s+(?:id|name)=\"([^\"]+)\"");

    /** Folders no page of the project lives in. */
    private static final Set<String> SKIPPED = Set.of("target", ".git", "node_modules", ".mvn", ".idea");

    /** A link as written, with the line it is on (1-based). */
    record Link(int line, String target) {}

    /** A fenced block: its info string ({@code java}), the line of its opening fence, the line before it, its text. */
    record Block(String info, int line, String lineBefore, List<String> text) {}

    /** Every Markdown page of the project under {@code root}, in a stable order. */
    static List<Markdown> pagesUnder(Path root) throws IOException {
        try (Stream<Path> files = Files.walk(root)) {
            return files.filter(path -> path.toString().endsWith(".md"))
                    .filter(path -> !containsSkipped(root.relativize(path)))
                    .sorted()
                    .map(Markdown::read)
                    .toList();
        }
    }

    private static boolean containsSkipped(Path relative) {
        for (Path part : relative) {
            if (SKIPPED.contains(part.toString())) {
                return true;
            }
        }
        return false;
    }

    static Markdown read(Path file) {
        try {
            return new Markdown(file, Files.readAllLines(file, StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Links outside fenced blocks and inline code. */
    List<Link> links() {
        List<Link> links = new ArrayList<>();
        boolean fenced = false;
        for (int i = 0; i < lines.size(); i++) {
            String line = lines.get(i);
            if (line.strip().startsWith("```")) {
                fenced = !fenced;
                continue;
            }
            if (fenced) {
                continue;
            }
            Matcher link = LINK.matcher(INLINE_CODE.matcher(line).replaceAll(""));
            while (link.find()) {
                links.add(new Link(i + 1, link.group(1)));
            }
        }
        return links;
    }

    /** The anchors a link may name: GitHub's heading slugs (with -1, -2 for repeats) and explicit anchors. */
    Set<String> anchors() {
        Set<String> anchors = new LinkedHashSet<>();
        Map<String, Integer> seen = new HashMap<>();
        boolean fenced = false;
        for (String line : lines) {
            if (line.strip().startsWith("```")) {
                fenced = !fenced;
                continue;
            }
            if (fenced) {
                continue;
            }
            Matcher explicit = EXPLICIT_ANCHOR.matcher(line);
            while (explicit.find()) {
                anchors.add(explicit.group(1));
            }
            Matcher heading = HEADING.matcher(line);
            if (heading.matches()) {
                String slug = slug(heading.group(1));
                int repeat = seen.merge(slug, 1, Integer::sum) - 1;
                anchors.add(repeat == 0 ? slug : slug + "-" + repeat);
            }
        }
        return anchors;
    }

    /**
     * GitHub's anchor for a heading: link syntax reduced to its text, lower case, every character but letters,
     * digits, spaces, hyphens and underscores dropped, each space a hyphen.
     */
    static String slug(String heading) {
        String text = heading.replaceAll("\\[([^\\]]*)\\]\\([^)]*\\)", "$1").toLowerCase(java.util.Locale.ROOT);
        return text.replaceAll("[^\\p{L}\\p{N} _-]", "").replace(' ', '-');
    }

    /** Fenced blocks whose info string starts with {@code language}. */
    List<Block> blocks(String language) {
        List<Block> blocks = new ArrayList<>();
        for (int i = 0; i < lines.size(); i++) {
            String fence = lines.get(i).strip();
            if (!fence.startsWith("```")) {
                continue;
            }
            String info = fence.substring(3).strip();
            int start = i;
            List<String> text = new ArrayList<>();
            for (i++; i < lines.size() && !lines.get(i).strip().startsWith("```"); i++) {
                text.add(lines.get(i));
            }
            if (info.equals(language) || info.startsWith(language + " ")) {
                String before = start > 0 ? lines.get(start - 1).strip() : "";
                blocks.add(new Block(info, start + 1, before, text));
            }
        }
        return blocks;
    }
}
