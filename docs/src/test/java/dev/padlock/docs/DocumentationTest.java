package dev.padlock.docs;

import static org.assertj.core.api.Assertions.assertThat;

import dev.padlock.Locked;
import dev.padlock.core.config.ConfigView;
import dev.padlock.core.plan.LockedSpec;
import dev.padlock.core.setup.PadlockSetup;
import dev.padlock.core.shape.ReflectedShapes;
import java.io.IOException;
import java.io.StringWriter;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import javax.tools.Diagnostic;
import javax.tools.DiagnosticCollector;
import javax.tools.JavaCompiler;
import javax.tools.JavaFileObject;
import javax.tools.StandardJavaFileManager;
import javax.tools.ToolProvider;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Keeps the README and every page under {@code docs/} (and the other Markdown pages of the repository) from going
 * stale: every relative link points at a file that exists, every anchor at a heading (or {@code <a id>}) of its page,
 * and every {@code java} block compiles against Padlock's published API.
 *
 * <p>How a {@code java} block is compiled, from the line before its fence:
 *
 * <ul>
 *   <li>no marker: a compilation unit (imports, then top-level types; no {@code package} line);
 *   <li>{@code <!-- java: members -->}: fields and methods, inside a class extending {@link
 *       dev.padlock.docs.snippets.SnippetContext} (which has {@code locks}, {@code lock} and {@code redisson});
 *   <li>{@code <!-- java: statements -->}: statements, inside a method of such a class that may throw.
 * </ul>
 *
 * Each block gets a package of its own and the imports every page may take for granted ({@link #IMPORTS}); its own
 * imports stay. Every {@code @Locked} method a block declares must then pass the deployment rules. A failure names
 * the page and the line.
 */
class DocumentationTest {

    private static final Path ROOT = Path.of("..").toAbsolutePath().normalize();

    /** What a snippet may use without importing it. */
    static final List<String> IMPORTS = List.of(
            "dev.padlock.*",
            "jakarta.enterprise.context.*",
            "jakarta.inject.*",
            "java.time.*",
            "java.util.*",
            "java.util.concurrent.*",
            "org.redisson.api.*");

    private static final String MEMBERS = "<!-- java: members -->";
    private static final String STATEMENTS = "<!-- java: statements -->";
    private static final Pattern PUBLIC_TYPE = Pattern.compile(
            "^public\\s+(?:(?:final|abstract|sealed|non-sealed)\\s+)*(?:class|interface|record|enum|@interface)\\s+(\\w+)",
            Pattern.MULTILINE);

    @Test
    void everyRelativeLinkAndAnchorResolves() throws IOException {
        Map<Path, Markdown> pages = new HashMap<>();
        for (Markdown page : Markdown.pagesUnder(ROOT)) {
            pages.put(page.file(), page);
        }
        assertThat(pages).containsKey(ROOT.resolve("README.md"));
        List<String> broken = new ArrayList<>();
        for (Markdown page : pages.values()) {
            for (Markdown.Link link : page.links()) {
                String problem = problemOf(page, link.target(), pages);
                if (problem != null) {
                    broken.add(where(page.file(), link.line()) + ": (" + link.target() + ") " + problem);
                }
            }
        }
        assertThat(broken.stream().sorted().toList())
                .as("relative links and anchors that do not resolve (fix the link, or the heading it names)")
                .isEmpty();
    }

    @Test
    void everyPageUnderDocsIsOneClickFromTheReadme() throws IOException {
        Markdown readme = Markdown.read(ROOT.resolve("README.md"));
        List<Path> linked = readme.links().stream()
                .map(link -> link.target().split("#", 2)[0])
                .filter(path -> !path.isEmpty() && !path.contains(":"))
                .map(path -> ROOT.resolve(path).normalize())
                .toList();
        List<String> unlinked = new ArrayList<>();
        for (Markdown page : Markdown.pagesUnder(ROOT.resolve("docs"))) {
            if (!linked.contains(page.file())) {
                unlinked.add(ROOT.relativize(page.file()).toString());
            }
        }
        assertThat(unlinked).as("pages under docs/ the README does not link").isEmpty();
    }

    /** Test classes the docs may name that are not this repository's: the Quarkus test harnesses. */
    private static final Set<String> OTHER_PROJECTS_TESTS =
            Set.of("QuarkusDevModeTest", "QuarkusExtensionTest", "QuarkusProdModeTest", "QuarkusUnitTest");

    /** {@code `MutualExclusionTest`}, {@code `PayaraInventoryIT`}, also with {@code #method} or {@code .method()}. */
    private static final Pattern TEST_NAME = Pattern.compile("`([A-Z][a-z]\\w*(?:Test|IT))(?:[#.][\\w()]*)?`");

    /** The proof a page names is a test that exists: a renamed or deleted test fails the build here. */
    @Test
    void everyTestThePagesNameExists() throws IOException {
        Set<String> classes = new HashSet<>(OTHER_PROJECTS_TESTS);
        try (Stream<Path> files = Files.walk(ROOT)) {
            files.filter(path -> path.toString().endsWith(".java")
                            && !path.toString().contains("/target/"))
                    .forEach(path -> classes.add(path.getFileName().toString().replace(".java", "")));
        }
        List<String> missing = new ArrayList<>();
        for (Markdown page : Markdown.pagesUnder(ROOT)) {
            for (int i = 0; i < page.lines().size(); i++) {
                Matcher name = TEST_NAME.matcher(page.lines().get(i));
                while (name.find()) {
                    if (!classes.contains(name.group(1))) {
                        missing.add(where(page.file(), i + 1) + ": " + name.group(1));
                    }
                }
            }
        }
        assertThat(missing)
                .as("tests the documentation names that no source file declares")
                .isEmpty();
    }

    /**
     * {@code `Taking`}, {@code `HandingOn.check`}, {@code `LockCommands.REDISSON`}, {@code `CallPhase.mayBecome()`}: a
     * class, optionally with a member, as the internals pages name the engine's parts.
     */
    private static final Pattern CODE_NAME = Pattern.compile(
            "`([A-Z][A-Za-z0-9]*[a-z][A-Za-z0-9]*)(?:\\.([a-z][A-Za-z0-9]*|[A-Z][A-Z0-9_]+))?(?:\\(\\))?`");

    /** Where the types the internals pages name without being Padlock's come from (JDK, Redisson, Mutiny, JTA). */
    private static final List<String> OTHER_PACKAGES = List.of(
            "java.lang.",
            "java.lang.reflect.",
            "java.util.concurrent.",
            "java.util.function.",
            "org.redisson.api.",
            "org.redisson.client.",
            "org.redisson.command.",
            "io.smallrye.mutiny.",
            "org.reactivestreams.",
            "jakarta.transaction.");

    /**
     * The pages that route a change to its class ({@code docs/internals/architecture.md}, {@code call-flow.md}) name
     * classes and members that exist: a class of Padlock's sources, main or test (and, with a member, one its source
     * declares), or a JDK, Redisson, Mutiny or JTA type. A renamed or moved class or method fails the build here, not a reader.
     */
    @Test
    void everyClassAndMemberTheInternalsPagesNameExists() throws IOException {
        Map<String, List<String>> sources = new HashMap<>();
        try (Stream<Path> files = Files.walk(ROOT)) {
            for (Path path : (Iterable<Path>) files::iterator) {
                String name = path.toString();
                if (name.endsWith(".java") && name.contains("/src/") && !name.contains("/target/")) {
                    String text = Files.readString(path);
                    Matcher type = Pattern.compile("\\b(?:class|interface|record|enum)\\s+([A-Z]\\w*)")
                            .matcher(text);
                    while (type.find()) {
                        sources.computeIfAbsent(type.group(1), k -> new ArrayList<>())
                                .add(text);
                    }
                }
            }
        }
        List<String> missing = new ArrayList<>();
        for (String page : List.of("docs/internals/architecture.md", "docs/internals/call-flow.md")) {
            Path file = ROOT.resolve(page);
            List<String> lines = Files.readAllLines(file);
            for (int i = 0; i < lines.size(); i++) {
                Matcher named = CODE_NAME.matcher(lines.get(i));
                while (named.find()) {
                    String type = named.group(1);
                    String member = named.group(2);
                    List<String> declaring = sources.get(type);
                    if (declaring == null) {
                        if (!isOtherProjectsType(type)) {
                            missing.add(where(file, i + 1) + ": " + type + " (no such class)");
                        }
                    } else if (member != null
                            && declaring.stream()
                                    .noneMatch(text -> Pattern.compile("\\b" + Pattern.quote(member) + "\\b")
                                            .matcher(text)
                                            .find())) {
                        missing.add(where(file, i + 1) + ": " + type + "." + member + " (no such member)");
                    }
                }
            }
        }
        assertThat(missing)
                .as("classes and members the internals pages name that no source declares")
                .isEmpty();
    }

    private static boolean isOtherProjectsType(String simpleName) {
        for (String pkg : OTHER_PACKAGES) {
            try {
                Class.forName(pkg + simpleName, false, DocumentationTest.class.getClassLoader());
                return true;
            } catch (ClassNotFoundException | LinkageError e) {
                // not in this package
            }
        }
        return false;
    }

    private static String problemOf(Markdown page, String target, Map<Path, Markdown> pages) {
        String lower = target.toLowerCase(Locale.ROOT);
        if (lower.startsWith("http://") || lower.startsWith("https://") || lower.startsWith("mailto:")) {
            return null;
        }
        int hash = target.indexOf('#');
        String path = hash < 0 ? target : target.substring(0, hash);
        String anchor = hash < 0 ? null : target.substring(hash + 1);
        Path file = path.isEmpty()
                ? page.file()
                : page.file().getParent().resolve(path).normalize();
        if (!file.startsWith(ROOT)) {
            return "leads out of the repository";
        }
        if (!Files.exists(file)) {
            return "no such file: " + ROOT.relativize(file);
        }
        if (anchor == null) {
            return null;
        }
        if (!file.toString().endsWith(".md")) {
            return "an anchor into a file that is not Markdown";
        }
        Markdown linked = pages.containsKey(file) ? pages.get(file) : Markdown.read(file);
        return linked.anchors().contains(anchor)
                ? null
                : "no heading or <a id> '" + anchor + "' in " + ROOT.relativize(file);
    }

    @Test
    void everyJavaSnippetCompiles() {
        assertThat(compiled.snippets()).as("java blocks in the documentation").isNotEmpty();
        assertThat(compiled.errors())
                .as(
                        "java blocks that do not compile (%d blocks; markers and imports: DocumentationTest's Javadoc)%s",
                        compiled.snippets().size(), compiled.output().isBlank() ? "" : "\n" + compiled.output())
                .isEmpty();
    }

    /**
     * A snippet that compiles can still be refused at deployment (a hold longer than the watchdog's lease, a
     * {@code SKIP} on a primitive): every {@code @Locked} method the snippets declare goes through the rules every
     * integration runs, with the default configuration.
     */
    @Test
    void everyLockedMethodInTheSnippetsPassesDeployment() throws Exception {
        assertThat(compiled.errors())
                .as("the snippets compile (see everyJavaSnippetCompiles)")
                .isEmpty();
        List<String> problems = new ArrayList<>();
        int checked = 0;
        try (URLClassLoader loader = new URLClassLoader(
                new URL[] {compiled.classes().toUri().toURL()}, getClass().getClassLoader())) {
            for (Snippet snippet : compiled.snippets()) {
                List<PadlockSetup.LockedMethod<Method>> locked = new ArrayList<>();
                for (Class<?> type : snippet.classes(compiled.classes(), loader)) {
                    locked.addAll(lockedMethods(type));
                }
                checked += locked.size();
                PadlockSetup<Method> setup = PadlockSetup.plan(
                        ConfigView.of(Map.of()), locked, List.of(), PadlockSetup.Connection.CHECK_ONLY, loader);
                for (String problem : setup.problems().list()) {
                    problems.add(snippet.where(snippet.offset()) + ": " + problem);
                }
            }
        }
        assertThat(checked).as("@Locked methods in the snippets").isPositive();
        assertThat(problems)
                .as("@Locked methods in the documentation that a deployment would refuse")
                .isEmpty();
    }

    /** What an integration collects: methods with {@code @Locked}, and business methods of a {@code @Locked} class. */
    private static List<PadlockSetup.LockedMethod<Method>> lockedMethods(Class<?> type) {
        List<PadlockSetup.LockedMethod<Method>> found = new ArrayList<>();
        Locked onType = type.getAnnotation(Locked.class);
        for (Method method : type.getDeclaredMethods()) {
            Locked locked = method.getAnnotation(Locked.class);
            if (locked == null
                    && (onType == null
                            || method.isSynthetic()
                            || Modifier.isStatic(method.getModifiers())
                            || Modifier.isPrivate(method.getModifiers()))) {
                continue;
            }
            found.add(new PadlockSetup.LockedMethod<>(
                    method, ReflectedShapes.of(method), LockedSpec.of(locked != null ? locked : onType)));
        }
        return found;
    }

    private static Compiled compiled;

    @BeforeAll
    static void compile(@TempDir Path work) throws IOException {
        List<Snippet> snippets = new ArrayList<>();
        for (Markdown page : Markdown.pagesUnder(ROOT)) {
            for (Markdown.Block block : page.blocks("java")) {
                snippets.add(Snippet.of(page.file(), block, snippets.size(), work));
            }
        }
        JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
        DiagnosticCollector<JavaFileObject> diagnostics = new DiagnosticCollector<>();
        StringWriter output = new StringWriter();
        Path classes = Files.createDirectories(work.resolve("classes"));
        try (StandardJavaFileManager files = javac.getStandardFileManager(diagnostics, null, StandardCharsets.UTF_8)) {
            List<String> options = List.of(
                    "-proc:none", "-parameters", "-Xlint:none", "-classpath", classPath(), "-d", classes.toString());
            Iterable<? extends JavaFileObject> units = files.getJavaFileObjectsFromPaths(
                    snippets.stream().map(Snippet::source).toList());
            javac.getTask(output, files, diagnostics, options, null, units).call();
        }
        List<String> errors = new ArrayList<>();
        for (Diagnostic<? extends JavaFileObject> diagnostic : diagnostics.getDiagnostics()) {
            if (diagnostic.getKind() != Diagnostic.Kind.ERROR) {
                continue;
            }
            Snippet snippet = snippets.stream()
                    .filter(s -> diagnostic.getSource() != null
                            && Path.of(diagnostic.getSource().toUri()).equals(s.source()))
                    .findFirst()
                    .orElse(null);
            String place = snippet == null ? "?" : snippet.where(diagnostic.getLineNumber());
            errors.add(place + ": "
                    + String.join(
                            " ",
                            diagnostic
                                    .getMessage(Locale.ROOT)
                                    .lines()
                                    .map(String::strip)
                                    .toList()));
        }
        compiled = new Compiled(snippets, classes, errors, output.toString());
    }

    /** The snippets, where their classes went, and what javac said. */
    record Compiled(List<Snippet> snippets, Path classes, List<String> errors, String output) {}

    /** The test class path; Surefire hands it over in a property when it starts tests from a manifest-only jar. */
    private static String classPath() {
        String surefire = System.getProperty("surefire.test.class.path");
        return surefire != null && !surefire.isBlank() ? surefire : System.getProperty("java.class.path");
    }

    static String where(Path file, long line) {
        return ROOT.relativize(file) + ":" + line;
    }

    /** One block written out as a source file, with where its lines came from. */
    record Snippet(Path page, int firstLine, int offset, Path source, String packageName) {

        static Snippet of(Path page, Markdown.Block block, int index, Path work) throws IOException {
            String mode = block.lineBefore();
            List<String> imports = new ArrayList<>();
            List<String> body = new ArrayList<>();
            int leading = 0;
            for (String line : block.text()) {
                String stripped = line.strip();
                if (body.isEmpty() && (stripped.startsWith("import ") || stripped.isEmpty())) {
                    imports.add(line);
                    leading++;
                } else {
                    body.add(line);
                }
            }
            String packageName = "dev.padlock.docs.snippets.s" + index;
            List<String> source = new ArrayList<>();
            source.add("package " + packageName + ";");
            for (String each : IMPORTS) {
                source.add("import " + each + ";");
            }
            source.add("import dev.padlock.docs.snippets.SnippetContext;");
            source.addAll(imports);
            String typeName = "Snippet";
            if (mode.equals(MEMBERS)) {
                source.add("class Snippet extends SnippetContext {");
            } else if (mode.equals(STATEMENTS)) {
                source.add("class Snippet extends SnippetContext { void run() throws Exception {");
            } else {
                Matcher named = PUBLIC_TYPE.matcher(String.join("\n", body));
                if (named.find()) {
                    typeName = named.group(1);
                }
            }
            // source line n (1-based) of the body is page line block.line() + leading + (n - offset)
            int offset = source.size() + 1;
            source.addAll(body);
            if (mode.equals(MEMBERS)) {
                source.add("}");
            } else if (mode.equals(STATEMENTS)) {
                source.add("}}");
            }
            Path folder = Files.createDirectories(work.resolve("src").resolve(packageName.replace('.', '/')));
            Path file = folder.resolve(typeName + ".java");
            Files.write(file, source, StandardCharsets.UTF_8);
            return new Snippet(page, block.line() + 1 + leading, offset, file, packageName);
        }

        /** Every class compiled from this snippet, nested ones included. */
        List<Class<?>> classes(Path compiledTo, ClassLoader loader) throws IOException, ClassNotFoundException {
            Path folder = compiledTo.resolve(packageName.replace('.', '/'));
            List<Class<?>> classes = new ArrayList<>();
            try (var files = Files.list(folder)) {
                for (Path file : files.sorted().toList()) {
                    String name = file.getFileName().toString();
                    if (name.endsWith(".class")) {
                        classes.add(
                                Class.forName(packageName + "." + name.substring(0, name.length() - 6), false, loader));
                    }
                }
            }
            return classes;
        }

        String where(long sourceLine) {
            return DocumentationTest.where(page, Math.max(firstLine, firstLine + sourceLine - offset));
        }
    }
}
