package dev.hindsight.memorymodel.confidence;

/**
 * What a memory's signals of one kind said about its usefulness before a person rated it: the thing
 * {@link ProjectWeights#learnFromFeedback} checks against the rating.
 */
enum Prediction {

    /** The signals said the memory helps (it was retrieved; most outcomes succeeded). */
    HELPFUL,

    /** The signals said it does not (most outcomes failed). */
    UNHELPFUL,

    /** No signals of that kind, or as many for as against: nothing to be right or wrong about, so nothing learned. */
    NONE;

    /** Whether a rating of {@code helpful} agrees with this prediction; false for {@link #NONE}. */
    public boolean agreesWith(boolean helpful) {
        return this == (helpful ? HELPFUL : UNHELPFUL);
    }
}
