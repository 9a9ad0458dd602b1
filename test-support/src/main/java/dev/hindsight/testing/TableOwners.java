package dev.hindsight.testing;

import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Each table has one owner, the feature package that writes it: other packages may read it, never insert, update or
 * delete. The owners are the ones a module's README names in its "Who owns which table" section (a Markdown table
 * whose first column is the table and second its owning package), so the README says it and this check holds it.
 */
public final class TableOwners {

    private static final Pattern ROW = Pattern.compile("^\\|\\s*`([a-z_]+)`\\s*\\|\\s*`([a-z_.]+)`\\s*\\|");

    private TableOwners() {
    }

    /** The owner of each table, as the README at {@code readme} lists them under "Who owns which table". */
    public static Map<String, String> fromReadme(Path readme) {
        Map<String, String> owners = new LinkedHashMap<>();
        boolean inSection = false;
        try {
            for (String line : Files.readAllLines(readme)) {
                if (line.startsWith("#")) {
                    inSection = line.toLowerCase(Locale.ROOT).contains("who owns which table");
                    continue;
                }
                Matcher row = ROW.matcher(line);
                if (inSection && row.find()) {
                    owners.put(row.group(1), row.group(2));
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        if (owners.isEmpty()) {
            throw new IllegalStateException(readme + " names no table owners under \"Who owns which table\"");
        }
        return owners;
    }

    /**
     * Each statement of {@code classes} that writes one of {@code owners}' tables from a package other than its owner
     * ({@code rootPackage} + "." + owner).
     */
    public static List<String> writesOutsideOwner(JavaClasses classes, String rootPackage, Map<String, String> owners) {
        Pattern writes = Pattern.compile("\\b(?:INSERT\\s+INTO|UPDATE|DELETE\\s+FROM)\\s+(?:\\{rm}\\.|rm_\\w+\\.)?("
                + String.join("|", owners.keySet()) + ")\\b", Pattern.CASE_INSENSITIVE);
        List<String> violations = new ArrayList<>();
        for (JavaClass javaClass : classes) {
            for (String statement : TenantRules.statements(javaClass)) {
                Matcher write = writes.matcher(statement);
                while (write.find()) {
                    String owner = rootPackage + "." + owners.get(write.group(1).toLowerCase(Locale.ROOT));
                    if (!javaClass.getPackageName().equals(owner)) {
                        violations.add(javaClass.getName() + " writes " + write.group(1) + ", which " + owner
                                + " owns: " + statement.replaceAll("\\s+", " ").trim());
                    }
                }
            }
        }
        return violations;
    }
}
