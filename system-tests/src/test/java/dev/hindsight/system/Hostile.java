package dev.hindsight.system;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/**
 * What a careless or hostile producer sends: text with control characters, characters outside the BMP, markup and
 * injection attempts, blank and very long strings; free-form JSON nested deep with huge and tiny numbers. Everything
 * it makes can be stored as sent, except what {@link #poison} plants: one NUL, lone surrogate or number beyond a
 * double, in a leaf it reports by path, which must make the request (or batch item) be refused naming that path.
 */
final class Hostile {

    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;
    private static final String[] WORDS = {"Buy", "NVDA", "at", "the", "open", "because", "the", "stop", "was", "hit",
        "retry", "cache", "lock", "encoding", "timeout", "parser", "row", "lost"};
    private static final String[] MARKUP = {"<script>alert(1)</script>", "<img src=x onerror=alert(1)>",
        "'; DROP TABLE session; --", "\" OR 1=1 --", "{{7*7}}", "${jndi:ldap://x/a}", "%00", "%s%n", "\\u0000",
        "\\", "\"", "null", "{\"a\":", "[", "]]>", "&lt;b&gt;", "../../etc/passwd", "\\x00", "$(rm -rf /)"};
    private static final String[] UNICODE = {"\uD83D\uDE00", "\uD835\uDD73", "\u6F22\u5B57", "\uD840\uDC00",
        "\u0645\u0631\u062D\u0628\u0627", "e\u0301", "\uD83D\uDC69\u200D\uD83D\uDCBB", "\uFEFF", "\uFFFF", "\uFFFE",
        "\u2028", "\u2029", "\u200B", "\u202E", "\uDBFF\uDFFF", "\u00E9", "\u00A0", "\uFDD0"};

    private final Random random;

    Hostile(Random random) {
        this.random = random;
    }

    Random random() {
        return random;
    }

    boolean chance(double p) {
        return random.nextDouble() < p;
    }

    int between(int low, int high) {
        return low + random.nextInt(high - low + 1);
    }

    /** Storable text of at most {@code max} UTF-16 units (what {@code @Size} counts), not blank unless allowed. */
    String text(int max, boolean blankAllowed) {
        String text;
        int kind = random.nextInt(blankAllowed ? 7 : 6);
        text = switch (kind) {
            case 0 -> words(between(1, 8));
            case 1 -> mixed(between(1, 40), true);
            case 2 -> mixed(between(1, 40), false);
            case 3 -> MARKUP[random.nextInt(MARKUP.length)] + " " + words(2);
            case 4 -> longText(max);
            case 5 -> UNICODE[random.nextInt(UNICODE.length)] + words(1) + (char) (1 + random.nextInt(31));
            default -> random.nextBoolean() ? "" : " \t\n ";
        };
        text = fit(text, max);
        if (!blankAllowed && text.isBlank()) {
            text = fit("x" + text, max);
        }
        return text;
    }

    /** Hostile text of exactly {@code length} UTF-16 units (a character outside the BMP is never cut in half). */
    String exactly(int length) {
        StringBuilder out = new StringBuilder(length + 64);
        while (out.length() < length) {
            out.append(random.nextInt(4) == 0 ? mixed(20, true) : words(10)).append('\n');
        }
        String text = fit(out.toString(), length);
        return text.length() == length ? text : text + 'x';
    }

    /** A string of many kinds of character, up to {@code max}, sometimes exactly {@code max}. */
    private String longText(int max) {
        int length = chance(0.3) ? max : between(Math.min(max, 100), max);
        StringBuilder out = new StringBuilder(length);
        while (out.length() < length) {
            out.append(random.nextInt(4) == 0 ? mixed(20, true) : words(10)).append('\n');
        }
        return out.toString();
    }

    private String words(int count) {
        StringBuilder out = new StringBuilder();
        for (int i = 0; i < count; i++) {
            out.append(i == 0 ? "" : " ").append(WORDS[random.nextInt(WORDS.length)]);
        }
        return out.toString();
    }

    /** Letters, every ASCII control character but NUL, and whole characters from every plane. */
    private String mixed(int length, boolean controls) {
        StringBuilder out = new StringBuilder();
        while (out.length() < length) {
            switch (random.nextInt(controls ? 4 : 3)) {
                case 0 -> out.append((char) ('a' + random.nextInt(26)));
                case 1 -> out.append(UNICODE[random.nextInt(UNICODE.length)]);
                case 2 -> out.appendCodePoint(randomCodePoint());
                default -> out.append(random.nextBoolean() ? (char) (1 + random.nextInt(31)) : '\u007f');
            }
        }
        return out.toString();
    }

    /** Any Unicode scalar value but NUL: never a surrogate on its own. */
    private int randomCodePoint() {
        while (true) {
            int c = 1 + random.nextInt(0x10FFFF);
            if (c < Character.MIN_SURROGATE || c > Character.MAX_SURROGATE) {
                return c;
            }
        }
    }

    /** At most {@code max} UTF-16 units, never ending in half a surrogate pair. */
    private static String fit(String text, int max) {
        if (text.length() <= max) {
            return text;
        }
        int end = max;
        if (end > 0 && Character.isHighSurrogate(text.charAt(end - 1))) {
            end--;
        }
        return text.substring(0, end);
    }

    /** An identifier producers would pick, as the id patterns allow: letters, digits and {@code . _ : @ -}. */
    String id(String prefix) {
        return prefix + "-" + Long.toString(random.nextLong() & Long.MAX_VALUE, 36);
    }

    /** Free-form JSON (tool arguments, snapshots): nested up to {@code depth}, with hostile keys and values. */
    JsonNode json(int depth) {
        if (depth <= 0 || chance(0.25)) {
            return scalar();
        }
        if (random.nextBoolean()) {
            ObjectNode object = NODES.objectNode();
            for (int i = between(0, 4); i > 0; i--) {
                object.set(text(40, true), json(depth - 1));
            }
            return object;
        }
        ArrayNode array = NODES.arrayNode();
        for (int i = between(0, 4); i > 0; i--) {
            array.add(json(depth - 1));
        }
        return array;
    }

    /** A JSON document nested exactly {@code depth} arrays deep around a string. */
    JsonNode deep(int depth) {
        JsonNode node = NODES.textNode(text(20, true));
        for (int i = 0; i < depth; i++) {
            node = NODES.arrayNode().add(node);
        }
        return node;
    }

    private JsonNode scalar() {
        return switch (random.nextInt(9)) {
            case 0 -> NODES.numberNode(new BigInteger(between(1, 300), random).negate());
            case 1 -> NODES.numberNode(1e308 * (random.nextBoolean() ? 1 : -1));
            case 2 -> NODES.numberNode(Double.MIN_VALUE);
            case 3 -> NODES.numberNode(random.nextGaussian() * 1e6);
            case 4 -> NODES.numberNode(random.nextInt());
            case 5 -> random.nextBoolean() ? NODES.booleanNode(random.nextBoolean()) : NODES.nullNode();
            default -> NODES.textNode(text(200, true));
        };
    }

    /** Where a poison was planted, in the notation the API names fields with, e.g. {@code messages[0].content}. */
    record Planted(String path, String kind) {
    }

    /**
     * Plants one value that cannot be stored into a random string or number leaf of {@code tree}, among those whose
     * path starts with one of {@code under} (every leaf when none is given), and says where.
     */
    Planted poison(ObjectNode tree, String... under) {
        List<Leaf> leaves = new ArrayList<>();
        collect(tree, "", leaves);
        if (under.length > 0) {
            leaves.removeIf(leaf -> java.util.Arrays.stream(under).noneMatch(prefix -> leaf.path.startsWith(prefix)));
        }
        if (leaves.isEmpty()) {
            throw new IllegalStateException("no leaf to poison under " + java.util.Arrays.toString(under));
        }
        Leaf leaf = leaves.get(random.nextInt(leaves.size()));
        JsonNode poisoned;
        String kind;
        if (leaf.value.isNumber()) {
            poisoned = NODES.numberNode(new BigDecimal((random.nextBoolean() ? "" : "-") + "1e" + between(309, 999)));
            kind = "a number beyond a double";
        } else {
            String text = leaf.value.textValue();
            int at = random.nextInt(text.length() + 1);
            String bad = switch (random.nextInt(3)) {
                case 0 -> "\u0000";
                case 1 -> String.valueOf((char) (0xD800 + random.nextInt(0x400)));
                default -> String.valueOf((char) (0xDC00 + random.nextInt(0x400)));
            };
            if (at > 0 && at < text.length() && Character.isLowSurrogate(text.charAt(at))) {
                at--;
            }
            // Between brackets: never next to a surrogate it could pair with.
            poisoned = NODES.textNode(text.substring(0, at) + "[" + bad + "]" + text.substring(at));
            kind = bad.equals("\u0000") ? "NUL" : "a lone surrogate";
        }
        if (leaf.parent instanceof ObjectNode object) {
            object.set(leaf.key, poisoned);
        } else {
            ((ArrayNode) leaf.parent).set(leaf.index, poisoned);
        }
        return new Planted(leaf.path, kind);
    }

    private record Leaf(JsonNode parent, String key, int index, String path, JsonNode value) {
    }

    private static void collect(JsonNode node, String path, List<Leaf> leaves) {
        if (node.isObject()) {
            node.fields().forEachRemaining(field -> {
                String child = path.isEmpty() ? field.getKey() : path + "." + field.getKey();
                if (field.getValue().isTextual() || field.getValue().isNumber()) {
                    leaves.add(new Leaf(node, field.getKey(), -1, child, field.getValue()));
                } else {
                    collect(field.getValue(), child, leaves);
                }
            });
        } else if (node.isArray()) {
            for (int i = 0; i < node.size(); i++) {
                String child = path + "[" + i + "]";
                JsonNode value = node.get(i);
                if (value.isTextual() || value.isNumber()) {
                    leaves.add(new Leaf(node, null, i, child, value));
                } else {
                    collect(value, child, leaves);
                }
            }
        }
    }
}
