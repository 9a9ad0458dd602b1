package dev.hindsight.memorymodel.confidence;

import java.util.Locale;

/**
 * The three kinds of evidence a memory's usefulness is learned from (design.md § Confidence), each with its own
 * learned weight per project.
 */
public enum SignalKind {

    /** A person rated the memory helpful or unhelpful ({@code memory_feedback}): the ground truth the others learn from. */
    EXPLICIT,

    /** The memory was returned by a search ({@code memory_search}): relevant enough to show, so always positive. */
    USAGE,

    /** An agent reported that the task it used the memory for succeeded or failed ({@code memory_outcome}). */
    OUTCOME;

    /** The lower-case name used on the wire and in storage ({@code explicit}, {@code usage}, {@code outcome}). */
    public String wireName() {
        return name().toLowerCase(Locale.ROOT);
    }

    /**
     * The kind named by {@link #wireName()}, case-insensitively, so events and rows written in either case read back.
     *
     * @throws IllegalArgumentException for any other name, so a corrupt value fails loudly instead of counting as
     *                                  some other kind
     */
    public static SignalKind fromWireName(String name) {
        if (name != null) {
            for (SignalKind kind : values()) {
                if (kind.name().equalsIgnoreCase(name.strip())) {
                    return kind;
                }
            }
        }
        throw new IllegalArgumentException("unknown signal kind: " + name);
    }
}
