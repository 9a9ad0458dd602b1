package dev.hindsight.memory.context;

import dev.hindsight.platform.redact.SecretScrubber;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Renders ranked memories as one Markdown block to put in an agent's context at session start
 * (design.md § Context injection), never above a token budget as {@link TokenEstimator} counts
 * ({@link #DEFAULT_MAX_TOKENS} by default).
 *
 * <pre>
 * ## Lessons from past sessions
 * Task: fix the login 500 for non-ASCII passwords
 *
 * ### Strategies that worked
 * - **Strategy: Encode passwords as UTF-8** (confidence 0.82): Approach: … Key steps: … Result: …
 *
 * ### Anti-patterns to avoid
 * - **Anti-pattern: Re-running a flaky test** (confidence 0.74): Do instead: … What went wrong: …
 * </pre>
 *
 * <p>Choices:
 * <ul>
 * <li>The block is always a prefix of the ranking: memories are taken best first while they fit, so whatever is
 * omitted is the least relevant. The memory that no longer fits whole is cut at the end of its last fitting sentence,
 * else of its last fitting word and marked with "…" (the sentence wins when it keeps more than half as much), when
 * at least {@value #MIN_CUT_WORDS} words of it fit;
 * otherwise it is omitted. Nothing after it is considered, so a short, less relevant memory never jumps ahead.</li>
 * <li>Within the block, strategies and anti-patterns have their own section; each keeps the ranking's order.</li>
 * <li>Content is condensed for an agent that already knows its task: the distiller's {@code Task:} line is left out,
 * an anti-pattern leads with {@code Do instead:} (the actionable part) before {@code What went wrong:}, and one memory
 * takes at most {@value #MAX_ITEM_TOKENS} tokens so a few memories share the budget.</li>
 * <li>The task line is shown when the budget allows it with at least one memory; it is dropped before a memory is.</li>
 * <li>A budget too small for the heading and one memory gives an empty block: a heading alone tells the agent
 * nothing.</li>
 * <li>Text is scrubbed of secrets once more (content is only returned scrubbed, design.md § Memories; this is another
 * way out).</li>
 * </ul>
 */
public final class ContextBlock {

    /** Memory injection should consume fewer than 500 tokens (design.md § Context injection). */
    public static final int DEFAULT_MAX_TOKENS = 500;

    /** The most one memory's condensed content may take, so that several memories share a budget. */
    public static final int MAX_ITEM_TOKENS = 120;

    /** The fewest words of a memory's content worth showing when it has to be cut. */
    public static final int MIN_CUT_WORDS = 4;

    static final String HEADING = "## Lessons from past sessions";
    static final String STRATEGIES = "### Strategies that worked";
    static final String ANTI_PATTERNS = "### Anti-patterns to avoid";
    static final int MAX_TITLE_LENGTH = 80;
    static final int MAX_TASK_TOKENS = 24;
    private static final String ELLIPSIS = "…";

    private static final SecretScrubber SCRUBBER = new SecretScrubber();
    private static final Pattern WHITESPACE = Pattern.compile("\\s+");
    private static final Pattern SECTION = Pattern.compile(
            "(?m)^\\s*(Task|Approach tried|Approach|Key steps|Result|What went wrong|Do instead):");
    private static final Pattern LIST_ITEM = Pattern.compile("\\s*(?:[-*•]|\\d{1,3}[.)])\\s+");
    private static final Pattern SENTENCE_END = Pattern.compile("[.!?](?=\\s|$)");

    private ContextBlock() {
    }

    /**
     * The rendered block and what went into it.
     *
     * @param text            the Markdown block; empty when nothing fits or there is nothing to show
     * @param estimatedTokens {@link TokenEstimator#estimate} of {@code text}, never above the budget
     * @param includedIds     the ids of the memories shown (whole or cut), in ranking order: the ones to record a
     *                        usage signal for
     * @param omitted         how many of the given memories were left out
     */
    public record Rendered(String text, int estimatedTokens, List<String> includedIds, int omitted) {

        public Rendered {
            Objects.requireNonNull(text, "text");
            includedIds = List.copyOf(includedIds);
        }
    }

    /**
     * Renders the memories for a task within {@code maxTokens} (see the class comment for the rules).
     *
     * @param task           the agent's task, shown in one line; null or blank for none
     * @param rankedMemories best first
     * @param maxTokens      the budget, &ge; 0
     */
    public static Rendered render(String task, List<ContextMemory> rankedMemories, int maxTokens) {
        Objects.requireNonNull(rankedMemories, "rankedMemories");
        if (maxTokens < 0) {
            throw new IllegalArgumentException("maxTokens must be >= 0, was " + maxTokens);
        }
        // Memories are condensed only when reached: most of a long ranking is never looked at.
        Item[] condensed = new Item[rankedMemories.size()];
        String taskLine = taskLine(task);
        Rendered rendered = renderItems(taskLine, rankedMemories, condensed, maxTokens);
        if (rendered.includedIds().isEmpty() && !taskLine.isEmpty()) {
            rendered = renderItems("", rankedMemories, condensed, maxTokens);
        }
        return rendered;
    }

    private static Rendered renderItems(String taskLine, List<ContextMemory> memories, Item[] condensed,
                                        int maxTokens) {
        List<Item> included = new ArrayList<>();
        for (int i = 0; i < memories.size(); i++) {
            if (condensed[i] == null) {
                condensed[i] = item(memories.get(i));
            }
            Item candidate = condensed[i];
            List<Item> withWhole = with(included, candidate);
            if (fits(taskLine, withWhole, maxTokens)) {
                included = withWhole;
                continue;
            }
            Item cut = largestFittingCut(taskLine, included, candidate, maxTokens);
            if (cut != null) {
                included = with(included, cut);
            }
            break;
        }
        if (included.isEmpty()) {
            return new Rendered("", 0, List.of(), memories.size());
        }
        String text = layout(taskLine, included);
        return new Rendered(text, TokenEstimator.estimate(text), included.stream().map(Item::id).toList(),
                memories.size() - included.size());
    }

    /**
     * The candidate with its body cut as long as still fits: at the last fitting sentence end when that keeps more
     * than half of what the last fitting word end keeps, else at that word end; null when not even
     * {@value #MIN_CUT_WORDS} words fit.
     */
    private static Item largestFittingCut(String taskLine, List<Item> included, Item candidate, int maxTokens) {
        List<Integer> wordEnds = wordEnds(candidate.body());
        if (wordEnds.size() <= MIN_CUT_WORDS) {
            return null;
        }
        // Binary search for the longest fitting cut (the estimate grows with the prefix), then check it for real.
        int low = MIN_CUT_WORDS - 1;
        int high = wordEnds.size() - 2;
        int best = -1;
        while (low <= high) {
            int middle = (low + high) >>> 1;
            if (fits(taskLine, with(included, candidate.cutAt(wordEnds.get(middle))), maxTokens)) {
                best = middle;
                low = middle + 1;
            } else {
                high = middle - 1;
            }
        }
        while (best >= MIN_CUT_WORDS - 1
                && !fits(taskLine, with(included, candidate.cutAt(wordEnds.get(best))), maxTokens)) {
            best--;
        }
        if (best < MIN_CUT_WORDS - 1) {
            return null;
        }
        int wordCut = wordEnds.get(best);
        int sentenceCut = lastSentenceEnd(candidate.body(), wordCut);
        if (sentenceCut > wordCut / 2 && wordEnds.indexOf(sentenceCut) >= MIN_CUT_WORDS - 1) {
            Item atSentence = candidate.cutAt(sentenceCut);
            if (fits(taskLine, with(included, atSentence), maxTokens)) {
                return atSentence;
            }
        }
        return candidate.cutAt(wordCut);
    }

    private static boolean fits(String taskLine, List<Item> items, int maxTokens) {
        return TokenEstimator.estimate(layout(taskLine, items)) <= maxTokens;
    }

    private static String layout(String taskLine, List<Item> items) {
        StringBuilder text = new StringBuilder(HEADING).append('\n');
        if (!taskLine.isEmpty()) {
            text.append(taskLine).append('\n');
        }
        appendSection(text, STRATEGIES, items.stream().filter(item -> !item.antiPattern()).toList());
        appendSection(text, ANTI_PATTERNS, items.stream().filter(Item::antiPattern).toList());
        return text.toString().stripTrailing();
    }

    private static void appendSection(StringBuilder text, String heading, List<Item> items) {
        if (items.isEmpty()) {
            return;
        }
        text.append('\n').append(heading).append('\n');
        for (Item item : items) {
            text.append(item.line()).append('\n');
        }
    }

    private static List<Item> with(List<Item> items, Item item) {
        List<Item> more = new ArrayList<>(items);
        more.add(item);
        return more;
    }

    private static String taskLine(String task) {
        String line = oneLine(SCRUBBER.scrub(task));
        return line.isEmpty() ? "" : "Task: " + truncateToTokens(line, MAX_TASK_TOKENS);
    }

    private static Item item(ContextMemory memory) {
        Objects.requireNonNull(memory, "memory");
        String title = oneLine(SCRUBBER.scrub(memory.title()));
        title = title.isEmpty() ? "(untitled)" : truncateChars(title, MAX_TITLE_LENGTH);
        String source = memory.content().isBlank() ? memory.description() : memory.content();
        String body = truncateToTokens(oneLine(SCRUBBER.scrub(condensed(source, memory.isAntiPattern()))),
                MAX_ITEM_TOKENS);
        double confidence = Math.max(0, Math.min(1, Double.isNaN(memory.confidence()) ? 0 : memory.confidence()));
        String prefix = "- **" + title.replace("**", "*") + "** (confidence "
                + String.format(Locale.ROOT, "%.2f", confidence) + ")";
        return new Item(memory.id(), memory.isAntiPattern(), prefix, body);
    }

    /**
     * The content without its Task section and, for an anti-pattern, with "Do instead" first; content without the
     * distiller's sections comes back as it is.
     */
    static String condensed(String content, boolean antiPattern) {
        Matcher matcher = SECTION.matcher(content);
        Map<String, String> sections = new LinkedHashMap<>();
        int start = -1;
        String name = null;
        String preamble = "";
        while (matcher.find()) {
            if (name != null) {
                sections.put(name, content.substring(start, matcher.start()).strip());
            } else {
                preamble = content.substring(0, matcher.start()).strip();
            }
            name = matcher.group(1);
            start = matcher.start(1);
        }
        if (name == null) {
            return content;
        }
        sections.put(name, content.substring(start).strip());
        List<String> order = antiPattern
                ? List.of("Do instead", "What went wrong", "Approach tried", "Approach", "Key steps", "Result")
                : List.of("Approach", "Approach tried", "Key steps", "Result", "What went wrong", "Do instead");
        StringBuilder out = new StringBuilder(preamble);
        for (String section : order) {
            String text = sections.get(section);
            if (text != null && !text.isEmpty()) {
                out.append(out.length() == 0 ? "" : " ").append(inline(text));
            }
        }
        return out.length() == 0 ? inline(sections.getOrDefault("Task", "")) : out.toString();
    }

    /**
     * A section on one line: its list items ({@code - …}, {@code 1. …}) joined with semicolons and ended with a full
     * stop, so "Key steps:" reads as one sentence rather than run-on fragments.
     */
    private static String inline(String section) {
        String[] lines = section.split("\\R");
        StringBuilder out = new StringBuilder(lines[0].strip());
        List<String> items = new ArrayList<>();
        for (int i = 1; i < lines.length; i++) {
            Matcher item = LIST_ITEM.matcher(lines[i]);
            if (item.lookingAt()) {
                String text = lines[i].substring(item.end()).strip();
                while (text.endsWith(".")) {
                    text = text.substring(0, text.length() - 1);
                }
                if (!text.isEmpty()) {
                    items.add(text);
                }
            } else if (!lines[i].isBlank()) {
                if (!items.isEmpty()) {
                    out.append(' ').append(String.join("; ", items)).append('.');
                    items.clear();
                }
                out.append(' ').append(lines[i].strip());
            }
        }
        if (!items.isEmpty()) {
            out.append(' ').append(String.join("; ", items)).append('.');
        }
        return out.toString();
    }

    /**
     * The text cut to at most {@code maxTokens}: whole when it fits, else at the last sentence end that fits when it
     * keeps at least half of what a word cut keeps, else at the last word end, with "…".
     */
    static String truncateToTokens(String text, int maxTokens) {
        // Look only at a prefix about twice as long as what can fit, so a huge content costs no more than a short one.
        int window = Math.min(text.length(), Math.max(64, maxTokens * 6));
        while (window < text.length() && TokenEstimator.estimate(text.substring(0, window)) <= maxTokens) {
            window = Math.min(text.length(), window * 2);
        }
        if (window == text.length() && TokenEstimator.estimate(text) <= maxTokens) {
            return text;
        }
        List<Integer> ends = new ArrayList<>(wordEnds(text.substring(0, window)));
        if (!ends.isEmpty() && ends.get(ends.size() - 1) == window && window < text.length()
                && text.charAt(window) != ' ') {
            ends.remove(ends.size() - 1);
        }
        int low = 0;
        int high = ends.size() - 1;
        int best = -1;
        while (low <= high) {
            int middle = (low + high) >>> 1;
            if (TokenEstimator.estimate(cut(text, ends.get(middle))) <= maxTokens) {
                best = middle;
                low = middle + 1;
            } else {
                high = middle - 1;
            }
        }
        while (best >= 0 && TokenEstimator.estimate(cut(text, ends.get(best))) > maxTokens) {
            best--;
        }
        if (best < 0) {
            return "";
        }
        int wordCut = ends.get(best);
        int sentenceCut = lastSentenceEnd(text, wordCut);
        if (sentenceCut > wordCut / 2) {
            return text.substring(0, sentenceCut);
        }
        return cut(text, wordCut);
    }

    /** End indices (exclusive) of the words of a one-line text, in order. */
    private static List<Integer> wordEnds(String text) {
        List<Integer> ends = new ArrayList<>();
        for (int i = 0; i < text.length(); i++) {
            if (text.charAt(i) != ' ' && (i + 1 == text.length() || text.charAt(i + 1) == ' ')) {
                ends.add(i + 1);
            }
        }
        return ends;
    }

    /** The end (exclusive) of the last sentence that ends at or before {@code limit}; 0 when none. */
    private static int lastSentenceEnd(String text, int limit) {
        Matcher matcher = SENTENCE_END.matcher(text);
        matcher.region(0, limit);
        int end = 0;
        while (matcher.find()) {
            end = matcher.end();
        }
        return end;
    }

    private static String cut(String text, int end) {
        if (end >= text.length()) {
            return text;
        }
        String kept = text.substring(0, end);
        int trim = kept.length();
        while (trim > 0 && ",;:-".indexOf(kept.charAt(trim - 1)) >= 0) {
            trim--;
        }
        return kept.substring(0, trim) + ELLIPSIS;
    }

    private static String truncateChars(String text, int max) {
        if (text.length() <= max) {
            return text;
        }
        int end = max - 1;
        if (Character.isHighSurrogate(text.charAt(end - 1))) {
            end--;
        }
        return text.substring(0, end) + ELLIPSIS;
    }

    private static String oneLine(String text) {
        return text == null ? "" : WHITESPACE.matcher(text).replaceAll(" ").strip();
    }

    /**
     * One memory ready to lay out.
     *
     * @param id          the memory's id
     * @param antiPattern which section it goes in
     * @param prefix      {@code - **title** (confidence 0.82)}
     * @param body        its condensed content, possibly cut
     */
    private record Item(String id, boolean antiPattern, String prefix, String body) {

        String line() {
            return body.isEmpty() ? prefix : prefix + ": " + body;
        }

        /** This item with its body ended at {@code end}, marked with "…" unless the cut ends a sentence. */
        Item cutAt(int end) {
            String kept = body.substring(0, Math.min(end, body.length()));
            boolean sentence = !kept.isEmpty() && ".!?".indexOf(kept.charAt(kept.length() - 1)) >= 0;
            return new Item(id, antiPattern, prefix, sentence || end >= body.length() ? kept : cut(body, end));
        }
    }
}
