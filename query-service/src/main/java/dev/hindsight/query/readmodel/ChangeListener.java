package dev.hindsight.query.readmodel;

import java.util.List;

/**
 * What must follow the read model's changes exactly, as {@link ChangeFeed} hears them (the read cache): opened when the
 * feed starts listening, told every change heard, closed while the feed cannot hear (changes may then go unannounced).
 */
interface ChangeListener {

    /** The feed listens: every change from now on will be heard. */
    void open();

    /** The feed stopped listening. */
    void close();

    /** Changes the projection committed. */
    void invalidate(List<Change> changes);
}
