package dev.hindsight.memory.distill;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Memory merging (design.md § Distillation): folds a fresh draft into a near-duplicate memory of the same project
 * instead of storing the lesson twice. The caller decides what is a near-duplicate (embedding similarity); this class
 * decides what the merged memory says.
 *
 * <p>Rules:
 * <ul>
 * <li>the existing id and title stay: links, feedback and search results keep pointing at the same memory;</li>
 * <li>tags and source session ids are unions, existing ones first in their order, then the draft's new ones in its
 * order; tags compare case-insensitively (the first spelling stays); at most {@value #MAX_TAGS} tags and
 * {@value #MAX_SOURCES} sources, the oldest kept, since the first sessions a lesson came from are its provenance;</li>
 * <li>the description and the content are each replaced only when the draft's is clearly more informative: at least
 * a quarter more distinct informative words (words of three or more letters or digits that are not stop words) and
 * at least {@value #MIN_EXTRA_WORDS} more. Ties and small gains keep the existing text, because the memory's
 * confidence was earned by that text, people may have rated it, and two similar drafts must not make it flip back
 * and forth.</li>
 * </ul>
 * Idempotent: merging the same draft again changes nothing, and {@link Merged#changed()} says so, so a replay does not
 * publish a second merge event.
 */
public final class MemoryMerge {

    /** Most tags a merged memory keeps. */
    public static final int MAX_TAGS = 20;

    /** Most source session ids a merged memory keeps. */
    public static final int MAX_SOURCES = 50;

    static final int MIN_EXTRA_WORDS = 3;

    private static final Pattern WORD = Pattern.compile("[\\p{L}\\p{N}]{3,}");
    private static final Set<String> STOP_WORDS = Set.of(
            "the", "and", "for", "with", "that", "this", "was", "were", "are", "not", "but", "from", "into", "then",
            "than", "when", "what", "which", "who", "its", "has", "have", "had", "been", "before", "after", "all",
            "any", "can", "could", "should", "would", "will", "our", "your", "their", "there", "here", "also", "only",
            "out", "off", "one", "each", "task", "approach", "key", "steps", "result", "went", "wrong", "instead");

    private MemoryMerge() {
    }

    /**
     * The merged memory and what changed.
     *
     * @param memory                the memory after the merge (same id and title)
     * @param addedTags             tags the draft added, in order
     * @param addedSourceSessionIds sessions the draft added, in order
     * @param descriptionReplaced   whether the draft's description replaced the existing one
     * @param contentReplaced       whether the draft's content replaced the existing one
     */
    public record Merged(ExistingMemory memory, List<String> addedTags, List<String> addedSourceSessionIds,
                         boolean descriptionReplaced, boolean contentReplaced) {

        public Merged {
            Objects.requireNonNull(memory, "memory");
            addedTags = List.copyOf(addedTags);
            addedSourceSessionIds = List.copyOf(addedSourceSessionIds);
        }

        /** Whether anything changed; when not, there is nothing to store or publish. */
        public boolean changed() {
            return !addedTags.isEmpty() || !addedSourceSessionIds.isEmpty() || descriptionReplaced || contentReplaced;
        }
    }

    /**
     * Whether the draft may be merged into the memory at all: a strategy never merges into an anti-pattern (or the
     * reverse), however similar their words, since they say opposite things.
     */
    public static boolean compatible(ExistingMemory existing, MemoryDraft draft) {
        return existing.outcome().equals(draft.outcome());
    }

    /**
     * Merges a near-duplicate draft into an existing memory (see the class comment for the rules).
     *
     * @throws IllegalArgumentException when the outcomes differ ({@link #compatible} is false)
     */
    public static Merged merge(ExistingMemory existing, MemoryDraft draft) {
        Objects.requireNonNull(existing, "existing");
        Objects.requireNonNull(draft, "draft");
        if (!compatible(existing, draft)) {
            throw new IllegalArgumentException("cannot merge a " + draft.outcome() + " draft into " + existing.outcome()
                    + " memory " + existing.id());
        }
        List<String> tags = new ArrayList<>(existing.tags());
        Set<String> seenTags = new HashSet<>();
        existing.tags().forEach(tag -> seenTags.add(tag.toLowerCase(Locale.ROOT)));
        List<String> addedTags = new ArrayList<>();
        for (String tag : draft.tags()) {
            if (tags.size() >= MAX_TAGS) {
                break;
            }
            String clean = tag == null ? "" : tag.strip();
            if (!clean.isEmpty() && seenTags.add(clean.toLowerCase(Locale.ROOT))) {
                tags.add(clean);
                addedTags.add(clean);
            }
        }

        List<String> sources = new ArrayList<>(existing.sourceSessionIds());
        List<String> addedSources = new ArrayList<>();
        if (sources.size() < MAX_SOURCES && !sources.contains(draft.sourceSessionId())) {
            sources.add(draft.sourceSessionId());
            addedSources.add(draft.sourceSessionId());
        }

        boolean descriptionReplaced = moreInformative(draft.description(), existing.description());
        boolean contentReplaced = moreInformative(draft.content(), existing.content());
        ExistingMemory merged = new ExistingMemory(existing.id(), existing.title(),
                descriptionReplaced ? draft.description() : existing.description(),
                contentReplaced ? draft.content() : existing.content(),
                existing.outcome(), tags, sources);
        return new Merged(merged, addedTags, addedSources, descriptionReplaced, contentReplaced);
    }

    /** Whether {@code candidate} says clearly more than {@code current} (see the class comment). */
    static boolean moreInformative(String candidate, String current) {
        int candidateWords = informativeWords(candidate);
        int currentWords = informativeWords(current);
        return candidateWords >= currentWords + MIN_EXTRA_WORDS && candidateWords * 4 >= currentWords * 5;
    }

    /** Distinct words of three or more letters or digits, lower-cased, stop words left out. */
    static int informativeWords(String text) {
        if (text == null) {
            return 0;
        }
        Set<String> words = new LinkedHashSet<>();
        Matcher matcher = WORD.matcher(text);
        while (matcher.find()) {
            String word = matcher.group().toLowerCase(Locale.ROOT);
            if (!STOP_WORDS.contains(word)) {
                words.add(word);
            }
        }
        return words.size();
    }
}
