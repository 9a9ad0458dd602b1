package dev.hindsight.evaluation.judge;

import java.util.Locale;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * What a shell command does for the method: {@link #INSPECT} reads without changing anything (grep, cat, logs,
 * git log/diff/blame), {@link #RUN} executes the code (tests, builds, the program itself), {@link #OTHER} is
 * housekeeping (install, cd, git commit). Judged from the command text alone, so it works on any captured trace.
 */
enum CommandKind {
    INSPECT,
    RUN,
    OTHER;

    private static final Pattern SEGMENT_SEPARATOR = Pattern.compile("&&|\\|\\||;|\\|");
    private static final Pattern ENV_ASSIGNMENT = Pattern.compile("[A-Za-z_][A-Za-z0-9_]*=\\S*");

    private static final Set<String> READERS = Set.of(
            "cat", "less", "more", "head", "tail", "grep", "egrep", "fgrep", "rg", "ag", "ack", "find", "fd", "ls",
            "tree", "wc", "diff", "file", "stat", "awk", "jq", "yq", "xxd", "hexdump", "od", "strings", "journalctl",
            "dmesg", "ps", "top", "printenv", "which", "whereis", "type", "lsof", "netstat", "ss", "strace", "ltrace",
            "gdb", "lldb", "pdb", "bat", "nl", "cut", "sort", "uniq", "du", "df", "readelf", "objdump", "nm", "ldd");

    /** Read-only subcommands of tools that can also change things. */
    private static final Set<String> GIT_READERS = Set.of(
            "log", "diff", "blame", "show", "status", "grep", "bisect", "shortlog", "reflog", "ls-files");
    private static final Set<String> KUBECTL_READERS = Set.of("logs", "describe", "get", "top", "events");
    private static final Set<String> DOCKER_READERS = Set.of("logs", "ps", "inspect", "top", "stats");

    private static final Set<String> RUNNERS = Set.of(
            "pytest", "py.test", "tox", "nox", "jest", "mocha", "vitest", "karma", "rspec", "phpunit", "ctest",
            "mvn", "mvnw", "gradle", "gradlew", "make", "cmake", "ninja", "bazel", "cargo", "go", "npm", "npx",
            "yarn", "pnpm", "tsc", "javac", "java", "gcc", "g++", "clang", "cc", "dotnet", "python", "python3",
            "node", "ruby", "deno", "bun", "bash", "sh", "curl", "http", "perl", "php", "rake", "bundle", "mix",
            "sbt", "lein", "swift", "zig", "rustc", "unittest", "nosetests");

    /** Tools that both run code and manage dependencies; for them a dependency subcommand is housekeeping. */
    private static final Set<String> PACKAGE_MANAGERS = Set.of(
            "npm", "npx", "yarn", "pnpm", "go", "cargo", "dotnet", "bundle", "mix", "deno", "bun");

    /** Subcommands that fetch or change dependencies rather than exercise the code. */
    private static final Set<String> DEPENDENCY_CHORES = Set.of(
            "install", "i", "add", "remove", "uninstall", "get", "mod", "update", "upgrade", "init", "ci", "fetch");

    /** The kind of a whole command line: a run anywhere in a pipeline wins over a read, a read over housekeeping. */
    static CommandKind of(String command) {
        if (command == null || command.isBlank()) {
            return OTHER;
        }
        CommandKind kind = OTHER;
        for (String segment : SEGMENT_SEPARATOR.split(command)) {
            CommandKind segmentKind = ofSegment(segment.trim());
            if (segmentKind == RUN) {
                return RUN;
            }
            if (segmentKind == INSPECT) {
                kind = INSPECT;
            }
        }
        return kind;
    }

    private static CommandKind ofSegment(String segment) {
        String[] words = segment.split("\\s+");
        int i = 0;
        while (i < words.length && (ENV_ASSIGNMENT.matcher(words[i]).matches()
                || Set.of("sudo", "time", "env", "nohup", "timeout").contains(words[i])
                || (i > 0 && words[i - 1].equals("timeout")))) {
            i++;
        }
        if (i >= words.length) {
            return OTHER;
        }
        String program = basename(words[i]).toLowerCase(Locale.ROOT);
        String sub = i + 1 < words.length ? words[i + 1].toLowerCase(Locale.ROOT) : "";
        switch (program) {
            case "git":
                return GIT_READERS.contains(sub) ? INSPECT : OTHER;
            case "kubectl":
                return KUBECTL_READERS.contains(sub) ? INSPECT : OTHER;
            case "docker":
                return DOCKER_READERS.contains(sub) ? INSPECT : RUN;
            case "sed":
                // sed -n prints; sed -i rewrites a file, which is an edit the trace did not log as one.
                return segment.contains(" -n") ? INSPECT : OTHER;
            case "pip", "pip3", "poetry", "composer", "apt", "apt-get", "brew", "conda":
                return OTHER;
            default:
                break;
        }
        if (READERS.contains(program)) {
            return INSPECT;
        }
        if (RUNNERS.contains(program)) {
            return PACKAGE_MANAGERS.contains(program) && DEPENDENCY_CHORES.contains(sub) ? OTHER : RUN;
        }
        // Executing a local file (./app, bin/repro, run_tests.sh) runs the code.
        if (words[i].startsWith("./") || words[i].startsWith("bin/") || program.endsWith(".sh")) {
            return RUN;
        }
        return OTHER;
    }

    private static String basename(String word) {
        int slash = word.lastIndexOf('/');
        return slash >= 0 ? word.substring(slash + 1) : word;
    }
}
