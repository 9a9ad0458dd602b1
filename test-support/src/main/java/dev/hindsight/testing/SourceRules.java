package dev.hindsight.testing;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;

/**
 * Rules read from the sources rather than the classes: how a service's lines are shared among its packages, and that
 * every main-code class name is the repository's only one of that name (so a name says which side it is on).
 */
final class SourceRules {

    private SourceRules() {
    }

    /** Lines of each package (its own files, not its subpackages) under {@code sourceRoot}, by package path. */
    public static Map<String, Long> linesByPackage(Path sourceRoot) {
        Map<String, Long> lines = new TreeMap<>();
        for (Path file : javaFiles(sourceRoot)) {
            String pkg = sourceRoot.relativize(file.getParent()).toString().replace('/', '.');
            lines.merge(pkg, lineCount(file), Long::sum);
        }
        return lines;
    }

    /** The packages holding more than {@code maxShare} of all the lines under {@code sourceRoot}. */
    public static List<String> oversizedPackages(Path sourceRoot, double maxShare) {
        Map<String, Long> lines = linesByPackage(sourceRoot);
        long total = lines.values().stream().mapToLong(Long::longValue).sum();
        List<String> oversized = new ArrayList<>();
        lines.forEach((pkg, n) -> {
            if (n > maxShare * total) {
                oversized.add("%s holds %d of %d lines (%.0f%%, at most %.0f%%)".formatted(pkg, n, total,
                        100.0 * n / total, 100 * maxShare));
            }
        });
        return oversized;
    }

    /** Class names used by more than one main-code file of the repository at {@code repository}, with their files. */
    public static Map<String, List<Path>> duplicateClassNames(Path repository) {
        Map<String, List<Path>> byName = new TreeMap<>();
        try (Stream<Path> modules = Files.walk(repository, 5)) {
            for (Path main : modules.filter(p -> p.endsWith(Path.of("src", "main", "java"))).toList()) {
                for (Path file : javaFiles(main)) {
                    String name = file.getFileName().toString().replace(".java", "");
                    if (!name.equals("package-info")) {
                        byName.computeIfAbsent(name, n -> new ArrayList<>()).add(repository.relativize(file));
                    }
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        byName.values().removeIf(files -> files.size() < 2);
        return byName;
    }

    private static List<Path> javaFiles(Path root) {
        try (Stream<Path> files = Files.walk(root)) {
            return files.filter(f -> f.toString().endsWith(".java")).sorted().toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static long lineCount(Path file) {
        try (Stream<String> lines = Files.lines(file)) {
            return lines.count();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
