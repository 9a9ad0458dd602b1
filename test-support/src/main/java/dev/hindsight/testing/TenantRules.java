package dev.hindsight.testing;

import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import java.io.DataInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.lang.reflect.Executable;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.lang.reflect.Parameter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * Tenant isolation rests on every statement that touches a tenant's rows naming its tenant. Two checks hold it:
 * <ul>
 * <li>no method, constructor or record of main code takes a tenant as a bare {@code String} (a parameter whose name
 * says tenant): it takes a {@code TenantId}, so a forgotten tenant is a compile error;</li>
 * <li>every SQL statement of main code that reads or writes a tenant-scoped table (one whose migration gives it a
 * {@code tenant_id} column) binds {@code tenant_id} ({@link #scoped}), unless it says in a comment that it works on
 * {@value #EVERY_TENANT} (retention, job claims, rebuilds): a type proves a tenant was passed, this proves the SQL
 * uses it.</li>
 * </ul>
 * Statements are every {@code static final String} of the classes (as evaluated, concatenations and {@code formatted}
 * included) and every string literal in their class files that starts as a statement does.
 */
final class TenantRules {

    /** The comment a statement carries when it deliberately works across tenants. */
    public static final String EVERY_TENANT = "every tenant";

    private static final Pattern STATEMENT = Pattern.compile("^\\s*(SELECT|INSERT|UPDATE|DELETE|WITH)\\b",
            Pattern.CASE_INSENSITIVE);
    private static final Pattern CREATE_TABLE = Pattern.compile(
            "CREATE\\s+TABLE\\s+(?:IF\\s+NOT\\s+EXISTS\\s+)?(?:[\\w%{}]+\\.)?(\\w+)\\s*\\(", Pattern.CASE_INSENSITIVE);
    private static final Pattern ADD_TENANT = Pattern.compile("ALTER\\s+TABLE\\s+(?:IF\\s+EXISTS\\s+)?(?:[\\w%{}]+\\.)?"
            + "(\\w+)\\s+ADD\\s+COLUMN\\s+(?:IF\\s+NOT\\s+EXISTS\\s+)?tenant_id\\b", Pattern.CASE_INSENSITIVE);

    private static final Pattern BOUND_TENANT = Pattern.compile(
            "tenant_id\\s*(?:=|IN)\\s*(?:\\$\\d+|ANY\\s*\\(\\s*\\$\\d+)", Pattern.CASE_INSENSITIVE);
    private static final Pattern INSERTED_TENANT = Pattern.compile("INSERT\\s+INTO\\s+[^(]+\\([^)]*\\btenant_id\\b",
            Pattern.CASE_INSENSITIVE);
    private static final Pattern VALUES = Pattern.compile("\\bVALUES\\s*\\(", Pattern.CASE_INSENSITIVE);

    private TenantRules() {
    }

    /** Violations of the first rule among {@code classes}: "Type.method(String tenant)". */
    public static List<String> bareStringTenants(JavaClasses classes) {
        List<String> violations = new ArrayList<>();
        for (JavaClass javaClass : classes) {
            Class<?> type = load(javaClass.getName(), false);
            if (type == null) {
                violations.add(javaClass.getName() + " cannot be loaded: put it on the test's class path");
                continue;
            }
            List<Executable> executables = new ArrayList<>();
            try {
                executables.addAll(List.of(type.getDeclaredConstructors()));
                executables.addAll(List.of(type.getDeclaredMethods()));
            } catch (LinkageError uninspectable) {
                violations.add(javaClass.getName() + " cannot be inspected (" + uninspectable
                        + "): put what it needs on the test's class path");
                continue;
            }
            for (Executable executable : executables) {
                if (executable.isSynthetic()) {
                    continue;
                }
                for (Parameter parameter : executable.getParameters()) {
                    if (!parameter.isNamePresent()) {
                        throw new IllegalStateException(type.getName() + " was compiled without -parameters");
                    }
                    if (parameter.getType() == String.class
                            && parameter.getName().toLowerCase(Locale.ROOT).contains("tenant")) {
                        violations.add(type.getName() + "." + (executable instanceof java.lang.reflect.Constructor
                                ? "<init>" : executable.getName()) + "(String " + parameter.getName() + ")");
                    }
                }
            }
        }
        return violations;
    }

    /**
     * The tables to which the SQL files under {@code migrations} give a tenant_id column (in their {@code CREATE TABLE}
     * or by an {@code ALTER TABLE ... ADD COLUMN}).
     */
    public static Set<String> tenantScopedTables(Path... migrations) {
        Set<String> tables = new TreeSet<>();
        for (Path directory : migrations) {
            if (!Files.isDirectory(directory)) {
                continue;
            }
            try (Stream<Path> files = Files.walk(directory)) {
                for (Path file : files.filter(f -> f.toString().endsWith(".sql")).toList()) {
                    String sql = Files.readString(file).replaceAll("--[^\\n]*", "");
                    Matcher create = CREATE_TABLE.matcher(sql);
                    while (create.find()) {
                        String columns = balanced(sql, create.end() - 1);
                        if (Pattern.compile("\\btenant_id\\b").matcher(columns).find()) {
                            tables.add(create.group(1).toLowerCase(Locale.ROOT));
                        }
                    }
                    Matcher added = ADD_TENANT.matcher(sql);
                    while (added.find()) {
                        tables.add(added.group(1).toLowerCase(Locale.ROOT));
                    }
                }
            } catch (IOException e) {
                throw new IllegalStateException("cannot read the migrations in " + directory, e);
            }
        }
        return tables;
    }

    /** Violations of the second rule: each statement (abridged) that touches one of {@code tables} without its tenant. */
    public static List<String> statementsWithoutTenant(JavaClasses classes, Set<String> tables) {
        if (tables.isEmpty()) {
            return List.of();
        }
        Pattern touches = Pattern.compile("\\b(?:FROM|JOIN|INTO|UPDATE|USING)\\s+(?:\\{rm}\\.|rm_\\w+\\.)?("
                + String.join("|", tables) + ")\\b", Pattern.CASE_INSENSITIVE);
        List<String> violations = new ArrayList<>();
        for (JavaClass javaClass : classes) {
            Set<String> statements = statements(javaClass);
            for (String statement : statements) {
                if (isPrefixOfAnother(statement, statements)) {
                    continue; // a shared beginning (a column list): the statements it begins are checked whole
                }
                Matcher table = touches.matcher(statement);
                if (table.find() && !scoped(statement)) {
                    violations.add(javaClass.getName() + " touches " + table.group(1) + " without binding tenant_id: "
                            + abridged(statement));
                }
            }
        }
        return violations;
    }

    /**
     * Whether a statement is held to a tenant: it binds {@code tenant_id} to a parameter ({@code tenant_id = $1},
     * {@code = ANY($1)}), inserts rows whose {@code tenant_id} it is given ({@code VALUES}), or applies a batch of input rows that carry
     * their tenants ({@code unnest(...)} joined on {@code tenant_id}); or it says it works on {@value #EVERY_TENANT}.
     * A tenant column merely mentioned (a correlated subquery's {@code a.tenant_id = s.tenant_id}) is not enough.
     */
    static boolean scoped(String statement) {
        return statement.contains(EVERY_TENANT) || BOUND_TENANT.matcher(statement).find()
                || (INSERTED_TENANT.matcher(statement).find() && VALUES.matcher(statement).find())
                || (statement.contains("unnest(") && statement.contains("tenant_id"));
    }

    static Set<String> statements(JavaClass javaClass) {
        Set<String> statements = new LinkedHashSet<>();
        Class<?> type = load(javaClass.getName(), true);
        if (type != null) {
            for (Field field : type.getDeclaredFields()) {
                int modifiers = field.getModifiers();
                if (field.getType() == String.class && Modifier.isStatic(modifiers) && Modifier.isFinal(modifiers)) {
                    try {
                        field.setAccessible(true);
                        Object value = field.get(null);
                        if (value instanceof String text && STATEMENT.matcher(text).find()) {
                            statements.add(text);
                        }
                    } catch (ReflectiveOperationException | RuntimeException unreadable) {
                        // The class file's literals below still cover it.
                    }
                }
            }
        }
        javaClass.getSource().ifPresent(source -> {
            try (InputStream in = source.getUri().toURL().openStream()) {
                for (String literal : literals(in.readAllBytes())) {
                    if (STATEMENT.matcher(literal).find()) {
                        statements.add(literal);
                    }
                }
            } catch (IOException e) {
                throw new IllegalStateException("cannot read " + source.getUri(), e);
            }
        });
        return statements;
    }

    private static boolean isPrefixOfAnother(String statement, Set<String> statements) {
        for (String other : statements) {
            if (other.length() > statement.length() && other.startsWith(statement)) {
                return true;
            }
        }
        return false;
    }

    /** The string constants of a class file's constant pool (JVMS 4.4). */
    static List<String> literals(byte[] classFile) throws IOException {
        DataInputStream in = new DataInputStream(new java.io.ByteArrayInputStream(classFile));
        in.readInt();
        in.readUnsignedShort();
        in.readUnsignedShort();
        int count = in.readUnsignedShort();
        String[] utf8 = new String[count];
        List<Integer> strings = new ArrayList<>();
        for (int i = 1; i < count; i++) {
            int tag = in.readUnsignedByte();
            switch (tag) {
                case 1 -> utf8[i] = in.readUTF();
                case 8 -> strings.add(in.readUnsignedShort());
                case 7, 16, 19, 20 -> in.readUnsignedShort();
                case 15 -> {
                    in.readUnsignedByte();
                    in.readUnsignedShort();
                }
                case 3, 4, 9, 10, 11, 12, 17, 18 -> in.readInt();
                case 5, 6 -> {
                    in.readLong();
                    i++;
                }
                default -> throw new IOException("unknown constant pool tag " + tag);
            }
        }
        List<String> literals = new ArrayList<>();
        for (int index : strings) {
            literals.add(utf8[index]);
        }
        return literals;
    }

    private static String balanced(String sql, int open) {
        int depth = 0;
        for (int i = open; i < sql.length(); i++) {
            char c = sql.charAt(i);
            if (c == '(') {
                depth++;
            } else if (c == ')' && --depth == 0) {
                return sql.substring(open, i + 1);
            }
        }
        return sql.substring(open);
    }

    private static Class<?> load(String name, boolean initialize) {
        try {
            return Class.forName(name, initialize, Thread.currentThread().getContextClassLoader());
        } catch (ClassNotFoundException | LinkageError unloadable) {
            return null;
        }
    }

    private static String abridged(String statement) {
        String flat = statement.replaceAll("\\s+", " ").trim();
        return flat.length() > 160 ? flat.substring(0, 160) + "..." : flat;
    }
}
