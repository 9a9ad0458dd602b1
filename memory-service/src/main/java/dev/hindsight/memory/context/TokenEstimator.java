package dev.hindsight.memory.context;

/**
 * Estimates how many tokens a text costs an LLM, without shipping a tokenizer, erring on the high side: a budget
 * computed with it holds for the byte-level BPE tokenizers agents use.
 *
 * <p>Why not {@code chars / 4}: that rule is an average over English prose and is far too low exactly where memories
 * are dense: a 40-character commit hash is 36 tokens in cl100k_base (not 10), a UUID 18–21, base64 26–32 per 44
 * characters, CJK text about one token per character, an emoji up to three. Against cl100k_base, o200k_base and
 * Anthropic's published (legacy) tokenizer, {@code max(chars/4, words·4/3)} often comes out below the largest of the
 * three on ordinary technical paragraphs.
 *
 * <p>How: the text is cut into the pieces BPE pre-tokenizers cut it into, each costed pessimistically:
 * <ul>
 * <li>letters: split at camelCase humps, then ⌈n/4⌉ per sub-word with a vowel (a word or a common fragment) and
 * ⌈n/2⌉ without one (an abbreviation or a random fragment);</li>
 * <li>digits: 1 for up to three, then ⌈n/2⌉;</li>
 * <li>whitespace: a single space is free (it merges into the next token), any other run ⌈n/4⌉;</li>
 * <li>ASCII punctuation: ⌈n/2⌉ per run of the same character;</li>
 * <li>other characters: their UTF-8 length minus one (1 for accented Latin and Cyrillic, 2 for CJK, 3 for most
 * emoji);</li>
 * <li>and a run of 16 or more letters, digits and {@code + / = _ -} that switches between lower case, upper case and
 * digits at least every third character (a hash, a key, base64) costs at least 0.9 per character.</li>
 * </ul>
 * The estimate is meant never to come out below the largest of the three tokenizers ({@code TokenEstimatorTest}), so
 * it comes out somewhat above it on ordinary text: the price of a budget that holds.
 */
public final class TokenEstimator {

    private static final int RANDOM_RUN_MIN_LENGTH = 16;
    private static final double RANDOM_SWITCH_RATE = 0.35;
    private static final double RANDOM_COST_PER_CHAR = 0.9;

    private TokenEstimator() {
    }

    /** The estimated token count of the text; 0 for null or empty. */
    public static int estimate(String text) {
        if (text == null || text.isEmpty()) {
            return 0;
        }
        int[] cps = text.codePoints().toArray();
        double cost = 0;
        int i = 0;
        while (i < cps.length) {
            boolean blob = isBlobChar(cps[i]);
            int j = i;
            while (j < cps.length && isBlobChar(cps[j]) == blob) {
                j++;
            }
            double pieces = pieces(cps, i, j);
            cost += blob && looksRandom(cps, i, j) ? Math.max(pieces, RANDOM_COST_PER_CHAR * (j - i)) : pieces;
            i = j;
        }
        return (int) Math.ceil(cost);
    }

    private static double pieces(int[] cps, int from, int to) {
        double cost = 0;
        int i = from;
        while (i < to) {
            int c = cps[i];
            int j = i + 1;
            if (isLetter(c)) {
                int start = i;
                while (j < to && isLetter(cps[j])) {
                    boolean hump = isLower(cps[j - 1]) && isUpper(cps[j])
                            || isUpper(cps[j - 1]) && isUpper(cps[j]) && j + 1 < to && isLower(cps[j + 1]);
                    if (hump) {
                        cost += subWord(cps, start, j);
                        start = j;
                    }
                    j++;
                }
                cost += subWord(cps, start, j);
            } else if (isDigit(c)) {
                while (j < to && isDigit(cps[j])) {
                    j++;
                }
                int length = j - i;
                cost += length <= 3 ? 1 : Math.ceil(length / 2.0);
            } else if (c < 128 && Character.isWhitespace(c)) {
                while (j < to && cps[j] < 128 && Character.isWhitespace(cps[j])) {
                    j++;
                }
                int length = j - i;
                cost += length == 1 && c == ' ' ? 0 : Math.ceil(length / 4.0);
            } else if (c < 128) {
                while (j < to && cps[j] == c) {
                    j++;
                }
                cost += Math.ceil((j - i) / 2.0);
            } else {
                cost += utf8Length(c) - 1;
            }
            i = j;
        }
        return cost;
    }

    private static double subWord(int[] cps, int from, int to) {
        int length = to - from;
        for (int k = from; k < to; k++) {
            if ("aeiouyAEIOUY".indexOf(cps[k]) >= 0) {
                return Math.ceil(length / 4.0);
            }
        }
        return Math.ceil(length / 2.0);
    }

    /** Whether a run of blob characters switches case or between letters and digits often enough to be random. */
    private static boolean looksRandom(int[] cps, int from, int to) {
        int length = to - from;
        if (length < RANDOM_RUN_MIN_LENGTH) {
            return false;
        }
        int switches = 0;
        for (int k = from + 1; k < to; k++) {
            int previous = charClass(cps[k - 1]);
            int current = charClass(cps[k]);
            if (previous >= 0 && current >= 0 && previous != current) {
                switches++;
            }
        }
        return switches >= RANDOM_SWITCH_RATE * length;
    }

    private static int charClass(int c) {
        return isLower(c) ? 0 : isUpper(c) ? 1 : isDigit(c) ? 2 : -1;
    }

    private static boolean isBlobChar(int c) {
        return isLetter(c) || isDigit(c) || c == '+' || c == '/' || c == '=' || c == '_' || c == '-';
    }

    private static boolean isLetter(int c) {
        return isLower(c) || isUpper(c);
    }

    private static boolean isLower(int c) {
        return c >= 'a' && c <= 'z';
    }

    private static boolean isUpper(int c) {
        return c >= 'A' && c <= 'Z';
    }

    private static boolean isDigit(int c) {
        return c >= '0' && c <= '9';
    }

    private static int utf8Length(int codePoint) {
        return codePoint < 0x80 ? 1 : codePoint < 0x800 ? 2 : codePoint < 0x10000 ? 3 : 4;
    }
}
