package dev.hindsight.memorymodel.embedding;

/**
 * The text has nothing the embedding model can read: only spaces of any kind, zero-width or combining characters,
 * replacement characters or lone surrogates. The model yields no token for them, so there is no vector; callers answer
 * it as bad input (400), naming the field the text came from.
 */
public class NothingToEmbed extends IllegalArgumentException {

    public static final String MESSAGE = "has no words the embedding model can read (only spaces, invisible or "
            + "unreadable characters)";

    public NothingToEmbed(Throwable cause) {
        super(MESSAGE, cause);
    }
}
