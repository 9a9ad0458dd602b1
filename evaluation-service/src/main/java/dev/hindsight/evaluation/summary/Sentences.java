package dev.hindsight.evaluation.summary;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Splits a model's message into plain sentences: markdown noise stripped (headings, bullets, emphasis, code
 * fences), each heading or bullet its own sentence, soft-wrapped lines joined, and no split after abbreviations
 * ("e.g. NVDA"), initials or inside decimals ("3.5").
 */
final class Sentences {

    private static final Pattern FENCE = Pattern.compile("^\\s*(```|~~~).*$");
    private static final Pattern HEADING = Pattern.compile("^#{1,6}\\s+");
    private static final Pattern BULLET = Pattern.compile("^([-*+•‣◦]|\\d{1,3}[.)])\\s+");
    private static final Pattern QUOTE = Pattern.compile("^>+\\s?");
    private static final Pattern RULE = Pattern.compile("^([-*_=]\\s*){3,}$");
    private static final Pattern TABLE_SEPARATOR = Pattern.compile("^[|:\\s]*-{2,}[-|:\\s]*$");
    private static final Pattern LINK = Pattern.compile("!?\\[([^\\]]*)]\\([^)]*\\)");
    private static final Pattern STRONG = Pattern.compile("(\\*\\*|__)(.+?)\\1");
    private static final Pattern EMPHASIS = Pattern.compile("(?<![\\w*])\\*(\\S(?:[^*]*\\S)?)\\*(?![\\w*])");
    private static final Pattern WHITESPACE = Pattern.compile("\\s+");

    /** Words that end with a period without ending the sentence. */
    private static final Set<String> ABBREVIATIONS = Set.of(
            "e.g", "i.e", "eg", "ie", "vs", "cf", "approx", "est", "mr", "mrs", "ms", "dr", "prof", "st", "jr", "sr",
            "inc", "ltd", "corp", "fig", "vol", "pp", "ca", "jan", "feb", "mar", "apr", "jun", "jul", "aug", "sep",
            "sept", "oct", "nov", "dec", "u.s", "u.k", "a.m", "p.m", "al", "incl", "excl");

    private Sentences() {
    }

    /** The sentences of {@code text} in their original order; empty for null or blank text. */
    static List<String> split(String text) {
        List<String> sentences = new ArrayList<>();
        for (String unit : units(text)) {
            splitUnit(unit, sentences);
        }
        return sentences;
    }

    /**
     * Lines grouped into units that may hold several sentences: a heading, a bullet or a paragraph. Code blocks are
     * dropped because code is not a sentence a summary can quote; a message made only of code keeps its lines.
     */
    private static List<String> units(String text) {
        if (text == null || text.isBlank()) {
            return List.of();
        }
        String[] lines = text.replace("\r\n", "\n").replace('\r', '\n').split("\n", -1);
        List<String> prose = new ArrayList<>();
        List<String> everything = new ArrayList<>();
        boolean inCode = false;
        for (String line : lines) {
            if (FENCE.matcher(line).matches()) {
                inCode = !inCode;
                prose.add("");
                everything.add("");
                continue;
            }
            everything.add(line);
            prose.add(inCode ? "" : line);
        }
        List<String> units = group(prose);
        return units.isEmpty() ? group(everything) : units;
    }

    private static List<String> group(List<String> lines) {
        List<String> units = new ArrayList<>();
        StringBuilder current = null;
        for (String raw : lines) {
            String line = raw.strip();
            if (line.isEmpty() || RULE.matcher(line).matches() || TABLE_SEPARATOR.matcher(line).matches()) {
                current = flush(units, current);
                continue;
            }
            boolean startsBlock = false;
            Matcher heading = HEADING.matcher(line);
            if (heading.find()) {
                line = line.substring(heading.end());
                current = flush(units, current);
                units.add(inline(line));
                continue;
            }
            Matcher quote = QUOTE.matcher(line);
            if (quote.find()) {
                line = line.substring(quote.end());
            }
            Matcher bullet = BULLET.matcher(line);
            if (bullet.find()) {
                line = line.substring(bullet.end());
                startsBlock = true;
            }
            if (line.startsWith("|")) {
                line = line.replaceAll("^\\|\\s*|\\s*\\|$", "").replaceAll("\\s*\\|\\s*", ", ");
                startsBlock = true;
            }
            line = inline(line);
            if (line.isEmpty()) {
                continue;
            }
            // A plain line continues the previous one when that one had not ended and this one starts lower-case:
            // the soft wrap of a paragraph, not a new statement.
            if (current != null && !startsBlock && !endsSentence(current) && startsLowerCase(line)) {
                current.append(' ').append(line);
                continue;
            }
            current = flush(units, current);
            current = new StringBuilder(line);
        }
        flush(units, current);
        return units;
    }

    private static StringBuilder flush(List<String> units, StringBuilder current) {
        if (current != null && !current.isEmpty()) {
            units.add(current.toString());
        }
        return null;
    }

    /** Inline markdown removed: links keep their text, emphasis and code spans their content. */
    private static String inline(String line) {
        String out = LINK.matcher(line).replaceAll("$1");
        out = STRONG.matcher(out).replaceAll("$2");
        out = EMPHASIS.matcher(out).replaceAll("$1");
        out = out.replace("`", "");
        return WHITESPACE.matcher(out).replaceAll(" ").strip();
    }

    private static void splitUnit(String unit, List<String> out) {
        int start = 0;
        int n = unit.length();
        for (int i = 0; i < n; i++) {
            char c = unit.charAt(i);
            if (c == '。' || c == '！' || c == '？') {
                // Full-width terminators need no space after them.
                int end = i + 1;
                while (end < n && isCloser(unit.charAt(end))) {
                    end++;
                }
                add(out, unit.substring(start, end));
                start = end;
                i = end - 1;
                continue;
            }
            if (c != '.' && c != '!' && c != '?' && c != '…') {
                continue;
            }
            int end = i + 1;
            while (end < n && (unit.charAt(end) == '.' || unit.charAt(end) == '!' || unit.charAt(end) == '?'
                    || isCloser(unit.charAt(end)))) {
                end++;
            }
            int next = end;
            while (next < n && Character.isWhitespace(unit.charAt(next))) {
                next++;
            }
            // A boundary needs space after the terminator and a capital, digit or opening mark after the space:
            // "3.5" and "e.g. the" stay whole.
            if (next == end || next >= n || !opensSentence(unit.codePointAt(next))) {
                i = end - 1;
                continue;
            }
            if (c == '.' && end == i + 1 && isAbbreviation(unit, i)) {
                i = end - 1;
                continue;
            }
            add(out, unit.substring(start, end));
            start = next;
            i = next - 1;
        }
        if (start < n) {
            add(out, unit.substring(start));
        }
    }

    /** True when the word ending at the period at {@code dot} is a known abbreviation or a single-letter initial. */
    private static boolean isAbbreviation(String unit, int dot) {
        int from = dot;
        while (from > 0 && !Character.isWhitespace(unit.charAt(from - 1)) && unit.charAt(from - 1) != '(') {
            from--;
        }
        String word = unit.substring(from, dot).toLowerCase(Locale.ROOT);
        if (word.isEmpty()) {
            return false;
        }
        if (word.length() == 1 && Character.isLetter(word.charAt(0))) {
            return true;
        }
        return ABBREVIATIONS.contains(word) || word.matches("(\\p{L}\\.)+\\p{L}");
    }

    private static boolean isCloser(char c) {
        return c == '"' || c == '\'' || c == ')' || c == ']' || c == '»' || c == '”' || c == '’' || c == '」';
    }

    private static boolean opensSentence(int codePoint) {
        return Character.isUpperCase(codePoint) || Character.isTitleCase(codePoint) || Character.isDigit(codePoint)
                || "\"'([“‘«¿¡".indexOf(codePoint) >= 0
                // Scripts without case (CJK, Arabic, emoji) start sentences too.
                || Character.isLetter(codePoint) && !Character.isLowerCase(codePoint)
                || Character.getType(codePoint) == Character.OTHER_SYMBOL;
    }

    private static boolean endsSentence(CharSequence text) {
        char last = text.charAt(text.length() - 1);
        return ".!?:;…。！？".indexOf(last) >= 0;
    }

    private static boolean startsLowerCase(String line) {
        return Character.isLowerCase(line.codePointAt(0));
    }

    private static void add(List<String> out, String sentence) {
        String s = sentence.strip();
        // A fragment of punctuation alone ("..." between sentences) is no sentence; an emoji is.
        if (!s.isEmpty() && s.codePoints().anyMatch(
                cp -> Character.isLetterOrDigit(cp) || Character.getType(cp) == Character.OTHER_SYMBOL)) {
            out.add(s);
        }
    }
}
