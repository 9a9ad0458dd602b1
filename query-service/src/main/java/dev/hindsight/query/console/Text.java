package dev.hindsight.query.console;

/**
 * A text as a page shows it: whole when short, otherwise its first {@code limit} characters and a way to see all.
 * Cut on a code point, never inside a surrogate pair.
 */
public record Text(String preview, boolean truncated, int length) {

    public static Text of(String text, int limit) {
        if (text == null) {
            return null;
        }
        if (text.length() <= limit) {
            return new Text(text, false, text.length());
        }
        int end = Character.isHighSurrogate(text.charAt(limit - 1)) ? limit - 1 : limit;
        return new Text(text.substring(0, end), true, text.length());
    }
}
