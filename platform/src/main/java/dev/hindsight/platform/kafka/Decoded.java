package dev.hindsight.platform.kafka;

/**
 * A record's value as a projection receives it: the bytes as stored, and either the envelope read from them or why
 * they could not be read. Keeping the bytes lets a poison record go to its dead-letter topic exactly as it was.
 */
public record Decoded(byte[] raw, Object envelope, RuntimeException failure) {
}
