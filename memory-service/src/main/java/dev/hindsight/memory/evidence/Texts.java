package dev.hindsight.memory.evidence;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

/** Small text shaping the distiller needs: collapse whitespace, take sentences, cut on a word boundary. */
public final class Texts {

    private static final Pattern WHITESPACE = Pattern.compile("\\s+");
    /** A sentence ends at . ! or ? followed by whitespace and a capital, a digit, a quote or a bracket. */
    private static final Pattern SENTENCE_END = Pattern.compile("(?<=[.!?])\\s+(?=[\\p{Lu}\\p{N}\"'(\\[`])");

    private static final String ELLIPSIS = "…";

    private Texts() {
    }

    public static boolean isBlank(String text) {
        return text == null || text.isBlank();
    }

    /** All whitespace runs (newlines included) as one space, trimmed; null as empty. */
    public static String oneLine(String text) {
        return text == null ? "" : WHITESPACE.matcher(text).replaceAll(" ").strip();
    }

    /** The first {@code count} sentences of the text, on one line. */
    public static String sentences(String text, int count) {
        String line = oneLine(text);
        if (line.isEmpty()) {
            return line;
        }
        String[] parts = SENTENCE_END.split(line, count + 1);
        List<String> kept = new ArrayList<>();
        for (int i = 0; i < Math.min(count, parts.length); i++) {
            kept.add(parts[i]);
        }
        return String.join(" ", kept);
    }

    /** The first line of the text that is not blank, stripped; empty when none. */
    static String firstLine(String text) {
        if (text == null) {
            return "";
        }
        for (String line : text.split("\\R")) {
            if (!line.isBlank()) {
                return line.strip();
            }
        }
        return "";
    }

    /**
     * The text cut to at most {@code max} characters (code points are never split): whole when it fits, else cut
     * at the last space before the limit (or hard, when a single word is longer) and ended with an ellipsis.
     */
    public static String truncate(String text, int max) {
        String value = text == null ? "" : text;
        if (value.length() <= max) {
            return value;
        }
        if (max <= ELLIPSIS.length()) {
            return safeCut(value, max);
        }
        int limit = max - ELLIPSIS.length();
        int space = value.lastIndexOf(' ', limit);
        String cut = space > limit / 2 ? value.substring(0, space) : safeCut(value, limit);
        return stripTrailingPunctuation(cut) + ELLIPSIS;
    }

    /** The text without trailing spaces, commas, colons and semicolons, so an ellipsis or full stop reads well. */
    public static String stripTrailingPunctuation(String text) {
        int end = text.length();
        while (end > 0 && " ,;:-".indexOf(text.charAt(end - 1)) >= 0) {
            end--;
        }
        return text.substring(0, end);
    }

    /** The text ended with a full stop unless it already ends a sentence (or an ellipsis). */
    public static String asSentence(String text) {
        String value = stripTrailingPunctuation(text.strip());
        if (value.isEmpty() || ".!?…".indexOf(value.charAt(value.length() - 1)) >= 0) {
            return value;
        }
        return value + ".";
    }

    /**
     * A message split into its prose (code blocks removed) and its first fenced code block, kept verbatim up to
     * {@code maxLines} lines (then closed with a {@code …} line), so a how-to answer keeps its code readable.
     */
    public static Answer splitCode(String message, int maxLines) {
        StringBuilder prose = new StringBuilder();
        StringBuilder code = new StringBuilder();
        boolean inFence = false;
        boolean firstBlockDone = false;
        int codeLines = 0;
        for (String line : message.split("\\R", -1)) {
            boolean fence = line.strip().startsWith("```");
            if (fence) {
                if (inFence) {
                    if (!firstBlockDone) {
                        code.append("```");
                    }
                    firstBlockDone = firstBlockDone || code.length() > 0;
                    inFence = false;
                } else {
                    inFence = true;
                    endIntroduction(prose);
                    if (!firstBlockDone) {
                        code.append(line.strip()).append('\n');
                    }
                }
                continue;
            }
            if (inFence) {
                if (!firstBlockDone) {
                    if (codeLines < maxLines) {
                        code.append(line).append('\n');
                    } else if (codeLines == maxLines) {
                        code.append("…\n");
                    }
                    codeLines++;
                }
            } else {
                prose.append(line).append('\n');
            }
        }
        if (inFence && !firstBlockDone && code.length() > 0) {
            code.append("```");
        }
        return new Answer(oneLine(prose.toString()), code.toString());
    }

    /** "…in parts:" introduced code that is no longer there: end the sentence instead. */
    private static void endIntroduction(StringBuilder prose) {
        int end = prose.length();
        while (end > 0 && Character.isWhitespace(prose.charAt(end - 1))) {
            end--;
        }
        if (end > 0 && prose.charAt(end - 1) == ':') {
            prose.setCharAt(end - 1, '.');
        }
    }

    /** A message's prose on one line, and its first code block (empty when none). */
    public record Answer(String prose, String code) {
    }

    private static String safeCut(String value, int length) {
        int end = length;
        if (end > 0 && end < value.length() && Character.isHighSurrogate(value.charAt(end - 1))) {
            end--;
        }
        return value.substring(0, end);
    }
}
