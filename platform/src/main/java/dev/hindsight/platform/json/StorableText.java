package dev.hindsight.platform.json;

/**
 * The one rule for text Hindsight accepts: whatever a service acknowledges must be stored exactly as sent, in Kafka
 * (Avro strings are UTF-8) and in every read model (PostgreSQL {@code text} and {@code jsonb}). Two things JSON allows
 * cannot be: the NUL character U+0000, which PostgreSQL text cannot hold, and a lone UTF-16 surrogate, which is not
 * Unicode (RFC 7493, I-JSON) and which UTF-8 encoding would silently replace with '?'. Both are refused with a reason
 * naming the position; every other character, control characters included, is stored as sent (docs/design.md,
 * "Text that can be stored").
 */
public final class StorableText {

    private StorableText() {
    }

    /** Why {@code text} cannot be stored as sent, or null when it can (the common case, one pass, no allocation). */
    public static String problem(CharSequence text) {
        if (text == null) {
            return null;
        }
        int length = text.length();
        for (int i = 0; i < length; i++) {
            char c = text.charAt(i);
            if (c == 0) {
                return "contains the NUL character (U+0000) at character " + i
                        + ", which cannot be stored; remove it or replace it (for example with U+2400, '\u2400')";
            }
            if (c >= Character.MIN_SURROGATE && c <= Character.MAX_SURROGATE) {
                if (Character.isHighSurrogate(c) && i + 1 < length && Character.isLowSurrogate(text.charAt(i + 1))) {
                    i++;
                    continue;
                }
                return String.format("contains a lone surrogate (U+%04X) at character %d, which is not Unicode and "
                        + "cannot be stored as sent; send the character it stands for", (int) c, i);
            }
        }
        return null;
    }

    /**
     * Why a JSON number read as {@code value} cannot be stored as sent, or null: a number beyond a 64-bit IEEE 754
     * double (such as {@code 1e400}) would otherwise become Infinity, which JSON cannot express.
     */
    public static String problem(double value) {
        return Double.isFinite(value) ? null
                : "is a number beyond the range of a 64-bit floating-point number (about 1.8e308), which cannot be "
                        + "stored as sent";
    }

    /**
     * {@code text} with every NUL and lone surrogate replaced by U+FFFD, the Unicode replacement character. Only for
     * text Hindsight did not receive from a producer and so cannot refuse, such as a language model's answer.
     */
    public static String repaired(String text) {
        if (problem(text) == null) {
            return text;
        }
        StringBuilder out = new StringBuilder(text.length());
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (Character.isHighSurrogate(c) && i + 1 < text.length() && Character.isLowSurrogate(text.charAt(i + 1))) {
                out.append(c).append(text.charAt(++i));
            } else {
                out.append(c == 0 || Character.isSurrogate(c) ? '\uFFFD' : c);
            }
        }
        return out.toString();
    }
}
