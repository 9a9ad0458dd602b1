package dev.hindsight.query.readmodel;

import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLongArray;

/**
 * Which keys were seen lately: a Bloom filter of 2^20 bits (128 KiB, two probes) that forgets everything once it has
 * taken {@link #WINDOW} keys, so "lately" means the last {@code WINDOW} distinct keys. False positives (about one in
 * twenty when full) only let an answer into the cache on its first read; nothing is ever refused wrongly. Nothing is
 * allocated per key. Safe for concurrent use: a bit set or a count lost to a concurrent reset only makes a key be
 * remembered later.
 */
final class Doorkeeper {

    static final int WINDOW = 1 << 17;
    private static final int BITS = 20;

    private final AtomicLongArray words = new AtomicLongArray((1 << BITS) / Long.SIZE);
    private final AtomicInteger remembered = new AtomicInteger();

    /** Whether {@code key} was seen lately; it is remembered from now on either way. */
    boolean remember(Object key) {
        long hash = key.hashCode() * 0x9E3779B97F4A7C15L;
        hash ^= hash >>> 29;
        int first = (int) (hash & ((1 << BITS) - 1));
        int second = (int) ((hash >>> BITS) & ((1 << BITS) - 1));
        boolean seen = set(first) & set(second);
        if (!seen && remembered.incrementAndGet() >= WINDOW) {
            forget();
        }
        return seen;
    }

    /** Sets the bit; whether it was set already. */
    private boolean set(int bit) {
        int word = bit >>> 6;
        long mask = 1L << (bit & 63);
        long before = words.get(word);
        if ((before & mask) != 0) {
            return true;
        }
        return (words.getAndAccumulate(word, mask, (a, b) -> a | b) & mask) != 0;
    }

    private void forget() {
        remembered.set(0);
        for (int i = 0; i < words.length(); i++) {
            words.set(i, 0);
        }
    }
}
