package dev.hindsight.memory.evidence;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The tags a draft carries so search and people can filter by context (design.md § Distillation): {@code kind:},
 * {@code model:}, {@code language:} and {@code problem:}.
 *
 * <p>Languages come from evidence about code, never from prose: file extensions of edited files, paths in diff
 * headers and commands, code fence names, and the build or test tool a command runs ({@code pytest}, {@code go test},
 * {@code mvn}, {@code cargo}, {@code npm}). Problem types come from keyword cues in what the session said and what
 * failed (task, summary, thoughts, user messages, error lines), never from code or diffs, where words like "token"
 * or "lock" are identifiers, not problems; the {@value #MAX_PROBLEMS} types with the most cue hits are kept.
 */
public final class Tags {

    static final int MAX_LANGUAGES = 4;
    static final int MAX_PROBLEMS = 3;

    private static final Map<String, String> EXTENSIONS = extensions();
    private static final Map<String, String> FENCES = fences();
    private static final Map<String, Pattern> PROBLEMS = problems();

    /** A file extension: a dot after a name character, 1–6 letters, then no more name characters. */
    private static final Pattern EXTENSION = Pattern.compile("(?<=[A-Za-z0-9_])\\.([A-Za-z+]{1,6})(?![A-Za-z0-9_])");
    private static final Pattern DIFF_HEADER = Pattern.compile("(?m)^(?:diff --git a/(\\S+)|\\+\\+\\+ b/(\\S+)|--- a/(\\S+))");
    private static final Pattern FENCE = Pattern.compile("(?m)^\\s{0,3}```\\s{0,2}([A-Za-z0-9+#-]{1,20})");
    private static final List<ToolCue> TOOLS = List.of(
            new ToolCue(Pattern.compile("(?i)(?:^|[\\s;&|(])(?:pytest|python3?|pip3?|poetry|tox)(?=\\s|$)"), "python"),
            new ToolCue(Pattern.compile("(?:^|[\\s;&|(])go (?:test|build|run|vet|mod|get)(?=\\s|$)"), "go"),
            new ToolCue(Pattern.compile("(?:^|[\\s;&|(])cargo (?:test|build|run|check|clippy)(?=\\s|$)"), "rust"),
            new ToolCue(Pattern.compile("(?:^|[\\s;&|(])(?:\\./)?(?:mvnw?|gradlew?)(?=\\s|$)"), "java"),
            new ToolCue(Pattern.compile("(?:^|[\\s;&|(])(?:npm|npx|yarn|pnpm|node)(?=\\s|$)"), "javascript"),
            new ToolCue(Pattern.compile("(?:^|[\\s;&|(])(?:bundle exec|rspec|rake)(?=\\s|$)"), "ruby"),
            new ToolCue(Pattern.compile("(?:^|[\\s;&|(])dotnet (?:test|build|run)(?=\\s|$)"), "csharp"));

    private Tags() {
    }

    /**
     * The draft's tags, in a fixed order: kind, model, languages (alphabetical), problems (most cue hits first).
     *
     * @param kind     the session kind
     * @param model    the model; null or blank for none
     * @param code     where languages are looked for; see {@link CodeEvidence}
     * @param prose    texts where problem types are looked for
     */
    public static List<String> of(String kind, String model, CodeEvidence code, List<String> prose) {
        List<String> tags = new ArrayList<>();
        tags.add("kind:" + slug(kind));
        if (!Texts.isBlank(model)) {
            tags.add("model:" + slug(model));
        }
        languages(code).forEach(language -> tags.add("language:" + language));
        problems(prose).forEach(problem -> tags.add("problem:" + problem));
        return tags;
    }

    /**
     * The places a session shows which languages it touched, each read only for what it reliably says.
     *
     * @param pathsAndCommands edited file paths and command lines: file extensions, and the build or test tool run
     * @param diffs            diffs: only their file headers ({@code diff --git}, {@code ---}, {@code +++})
     * @param messages         messages and summaries: only their code fence names
     */
    public record CodeEvidence(List<String> pathsAndCommands, List<String> diffs, List<String> messages) {
    }

    /** The languages the code evidence shows, alphabetical, at most {@value #MAX_LANGUAGES}. */
    static List<String> languages(CodeEvidence code) {
        TreeSet<String> found = new TreeSet<>();
        for (String text : code.pathsAndCommands()) {
            if (Texts.isBlank(text)) {
                continue;
            }
            Matcher extension = EXTENSION.matcher(text);
            while (extension.find()) {
                addLanguage(EXTENSIONS, extension.group(1), found);
            }
            for (ToolCue tool : TOOLS) {
                if (tool.pattern().matcher(text).find()) {
                    found.add(tool.language());
                }
            }
        }
        for (String diff : code.diffs()) {
            Matcher header = DIFF_HEADER.matcher(diff == null ? "" : diff);
            while (header.find()) {
                for (int group = 1; group <= 3; group++) {
                    String path = header.group(group);
                    int dot = path == null ? -1 : path.lastIndexOf('.');
                    if (dot >= 0) {
                        addLanguage(EXTENSIONS, path.substring(dot + 1), found);
                    }
                }
            }
        }
        for (String message : code.messages()) {
            Matcher fence = FENCE.matcher(message == null ? "" : message);
            while (fence.find()) {
                addLanguage(FENCES, fence.group(1), found);
            }
        }
        return found.stream().limit(MAX_LANGUAGES).toList();
    }

    /** The problem types the prose is about: most cue hits first, ties in declaration order. */
    static List<String> problems(List<String> prose) {
        Map<String, Integer> hits = new LinkedHashMap<>();
        for (Map.Entry<String, Pattern> problem : PROBLEMS.entrySet()) {
            int count = 0;
            for (String text : prose) {
                if (Texts.isBlank(text)) {
                    continue;
                }
                Matcher matcher = problem.getValue().matcher(text);
                while (matcher.find()) {
                    count++;
                }
            }
            if (count > 0) {
                hits.put(problem.getKey(), count);
            }
        }
        // A stable sort keeps declaration order among equal counts.
        return hits.entrySet().stream()
                .sorted(Map.Entry.<String, Integer>comparingByValue().reversed())
                .limit(MAX_PROBLEMS)
                .map(Map.Entry::getKey)
                .toList();
    }

    /** Lower case, whitespace as hyphens: {@code Claude 3.5 Sonnet} becomes {@code claude-3.5-sonnet}. */
    public static String slug(String value) {
        return Texts.oneLine(value).toLowerCase(Locale.ROOT).replace(' ', '-');
    }

    private static void addLanguage(Map<String, String> names, String key, TreeSet<String> found) {
        String language = names.get(key.toLowerCase(Locale.ROOT));
        if (language != null) {
            found.add(language);
        }
    }

    private static Map<String, String> extensions() {
        Map<String, String> map = new LinkedHashMap<>();
        put(map, "java", "java");
        put(map, "kotlin", "kt", "kts");
        put(map, "scala", "scala");
        put(map, "groovy", "groovy");
        put(map, "python", "py", "pyi");
        put(map, "go", "go");
        put(map, "rust", "rs");
        put(map, "javascript", "js", "mjs", "cjs", "jsx");
        put(map, "typescript", "ts", "tsx", "mts", "cts");
        put(map, "ruby", "rb");
        put(map, "php", "php");
        put(map, "csharp", "cs");
        put(map, "c", "c", "h");
        put(map, "cpp", "cc", "cpp", "cxx", "hpp", "hh");
        put(map, "swift", "swift");
        put(map, "sql", "sql");
        put(map, "shell", "sh", "bash", "zsh");
        put(map, "elixir", "ex", "exs");
        put(map, "haskell", "hs");
        put(map, "dart", "dart");
        put(map, "lua", "lua");
        return Map.copyOf(map);
    }

    private static Map<String, String> fences() {
        Map<String, String> map = new LinkedHashMap<>();
        put(map, "python", "python", "py", "python3");
        put(map, "java", "java");
        put(map, "kotlin", "kotlin", "kt");
        put(map, "scala", "scala");
        put(map, "go", "go", "golang");
        put(map, "rust", "rust", "rs");
        put(map, "javascript", "javascript", "js", "jsx", "node");
        put(map, "typescript", "typescript", "ts", "tsx");
        put(map, "ruby", "ruby", "rb");
        put(map, "php", "php");
        put(map, "csharp", "csharp", "cs", "c#");
        put(map, "c", "c");
        put(map, "cpp", "cpp", "c++");
        put(map, "swift", "swift");
        put(map, "sql", "sql", "postgresql", "mysql", "plpgsql");
        put(map, "shell", "bash", "sh", "shell", "zsh");
        put(map, "elixir", "elixir");
        put(map, "haskell", "haskell");
        put(map, "dart", "dart");
        put(map, "lua", "lua");
        return Map.copyOf(map);
    }

    private static void put(Map<String, String> map, String language, String... keys) {
        for (String key : keys) {
            map.put(key, language);
        }
    }

    /** Problem types and their cues, in tie-breaking order: more specific types first, the generic "bug" last. */
    private static Map<String, Pattern> problems() {
        Map<String, Pattern> map = new LinkedHashMap<>();
        map.put("test-failure", cues("failing tests?", "tests? (?:fail|fails|failed|failing)", "assertion ?error",
                "assertion failed", "assert(?:Equals|That)", "expected:? ?<", "pytest", "junit", "test suite",
                "red build", "flaky"));
        map.put("null-handling", cues("null ?pointer(?:exception)?", "npe", "nonetype", "none type", "nil pointer",
                "nil map", "undefined is not", "cannot read propert(?:y|ies) of (?:undefined|null)", "null check",
                "is null", "was null", "null reference", "optional\\.empty"));
        map.put("auth", cues("auth", "authentication", "authori[sz]ation", "authenticat\\w*", "login", "log in",
                "logged in", "jwt", "oauth", "expired token", "token expired", "401", "403", "unauthori[sz]ed",
                "forbidden", "permission denied", "credentials?", "password", "sso", "session cookie"));
        map.put("concurrency", cues("race condition", "data race", "deadlocks?", "concurren(?:t|cy)", "threads?",
                "threading", "mutex", "goroutines?", "synchroni[sz]\\w*", "atomic", "lock contention"));
        map.put("performance", cues("slow", "slower", "latency", "performance", "timeouts?", "timed out",
                "memory leak", "out of memory", "oom", "n\\+1", "throughput", "cpu", "bottleneck", "p99"));
        map.put("dependency", cues("dependenc(?:y|ies)", "version conflict", "modulenotfounderror", "importerror",
                "no module named", "classnotfoundexception", "noclassdeffounderror", "cannot find module",
                "package\\.json", "requirements\\.txt", "pom\\.xml", "go\\.mod", "upgrad(?:e|ed|ing)",
                "incompatible versions?", "npm install", "pip install"));
        map.put("configuration", cues("config", "configuration", "misconfigur\\w*", "env var", "environment variables?",
                "settings", "\\.env", "application\\.properties", "application\\.ya?ml", "feature flag"));
        map.put("network", cues("connection refused", "connection reset", "econnrefused", "dns", "socket", "tls",
                "ssl", "certificate", "proxy", "502", "503", "504", "unreachable"));
        map.put("data", cues("database", "sql", "query", "queries", "migrations?", "schema", "csv", "dataframe",
                "seriali[sz]\\w*", "deseriali[sz]\\w*", "parse error", "encoding", "unicode\\w*", "utf-?8",
                "postgres\\w*", "mysql"));
        map.put("trading", cues("trades?", "trading", "positions?", "portfolio", "buy", "sell", "stocks?", "ticker",
                "market", "order book", "shares", "pnl", "profit"));
        map.put("bug", cues("bugs?", "fix(?:es|ed|ing)?", "broken", "regression", "crash\\w*", "defect",
                "doesn'?t work", "not working", "500", "internal server error"));
        return map;
    }

    private static Pattern cues(String... cues) {
        return Pattern.compile("(?i)(?<![\\p{L}\\p{N}_])(?:" + String.join("|", cues) + ")(?![\\p{L}\\p{N}_])");
    }

    private record ToolCue(Pattern pattern, String language) {
    }
}
