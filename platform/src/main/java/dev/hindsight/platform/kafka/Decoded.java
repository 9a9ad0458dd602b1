package dev.hindsight.platform.kafka;

import java.util.function.Supplier;

/**
 * A record's value as a projection receives it: the bytes as stored, and either the envelope read from them or why
 * they could not be read. Keeping the bytes lets a poison record go to its dead-letter topic exactly as it was.
 *
 * <p>A sealed event (ADR 0027) comes {@linkplain Seal#OPENED opened}: its envelope with the payload in clear. When
 * its data key was destroyed it is {@linkplain Seal#ERASED erased}: the envelope is the sealed one, and a projection
 * writes nothing of it. When its key could not be opened yet (not on the key topic even read to its end, or the KMS
 * away) it is {@linkplain Seal#UNOPENED unopened}: {@link #reopen} tries again, and it is waited for, never
 * dead-lettered.
 */
public record Decoded(byte[] raw, Object envelope, RuntimeException failure, Seal seal, Supplier<Decoded> reopen) {

    /** How a sealed event stands; null for an event written in clear. */
    public enum Seal { OPENED, ERASED, UNOPENED }

    /** An event readable as {@code envelope} (written in clear, or opened when {@code seal} says so). */
    static Decoded readable(byte[] raw, Object envelope, Seal seal) {
        return new Decoded(raw, envelope, null, seal, null);
    }

    /** An event that cannot be read, whatever is tried again: for its dead-letter topic. */
    static Decoded unreadable(byte[] raw, RuntimeException failure) {
        return new Decoded(raw, null, failure, null, null);
    }

    static Decoded erased(byte[] raw, Object sealedEnvelope) {
        return new Decoded(raw, sealedEnvelope, null, Seal.ERASED, null);
    }

    static Decoded unopened(byte[] raw, Object sealedEnvelope, RuntimeException why, Supplier<Decoded> reopen) {
        return new Decoded(raw, sealedEnvelope, why, Seal.UNOPENED, reopen);
    }

    /** Whether the event's data key was destroyed: nothing of it is to be projected. */
    public boolean erased() {
        return seal == Seal.ERASED;
    }

    /** Whether the event is sealed under a key not opened yet: to be tried again ({@link #reopen}), never dropped. */
    public boolean unopened() {
        return seal == Seal.UNOPENED;
    }
}
