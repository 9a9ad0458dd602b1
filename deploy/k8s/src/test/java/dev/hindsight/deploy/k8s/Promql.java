package dev.hindsight.deploy.k8s;

import java.util.LinkedHashSet;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** The metric names a PromQL expression reads: enough of PromQL to tell a series from a function, label or keyword. */
final class Promql {

    private static final Pattern STRING = Pattern.compile("\"(?:[^\"\\\\]|\\\\.)*\"|'(?:[^'\\\\]|\\\\.)*'");
    private static final Pattern MATCHERS = Pattern.compile("\\{[^}]*}");
    private static final Pattern RANGE = Pattern.compile("\\[[^\\]]*]");
    private static final Pattern GROUPING = Pattern.compile(
            "\\b(?:by|without|on|ignoring|group_left|group_right)\\s*\\([^)]*\\)");
    private static final Pattern IDENTIFIER = Pattern.compile("[a-zA-Z_:][a-zA-Z0-9_:]*");
    private static final Set<String> KEYWORDS = Set.of("and", "or", "unless", "by", "without", "on", "ignoring", "bool",
            "offset", "group_left", "group_right", "inf", "nan", "atan2");

    private Promql() {
    }

    static Set<String> metrics(String expr) {
        String bare = STRING.matcher(expr).replaceAll(" ");
        bare = MATCHERS.matcher(bare).replaceAll(" ");
        bare = RANGE.matcher(bare).replaceAll(" ");
        bare = GROUPING.matcher(bare).replaceAll(" ");
        Set<String> names = new LinkedHashSet<>();
        Matcher m = IDENTIFIER.matcher(bare);
        while (m.find()) {
            String name = m.group();
            int next = m.end();
            while (next < bare.length() && Character.isWhitespace(bare.charAt(next))) {
                next++;
            }
            boolean function = next < bare.length() && bare.charAt(next) == '(';
            boolean number = m.start() > 0 && (Character.isDigit(bare.charAt(m.start() - 1)) || bare.charAt(m.start() - 1) == '.');
            boolean variable = m.start() > 0 && bare.charAt(m.start() - 1) == '$';
            if (!function && !number && !variable && !KEYWORDS.contains(name.toLowerCase(java.util.Locale.ROOT))) {
                names.add(name);
            }
        }
        return names;
    }
}
