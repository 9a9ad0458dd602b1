package dev.hindsight.platform.limit;

import java.util.function.LongSupplier;

/**
 * A token bucket that may be overdrawn: it refills at {@code rate} tokens a second up to {@code capacity} (the burst),
 * a request is admitted while the bucket is not in debt, and what an admitted request turns out to cost is taken
 * afterwards, even below zero. A caller that overspent waits until the debt is repaid. Admission needs no knowledge of
 * the cost in advance (a request's events are counted only once its body is read), and a single request larger than
 * the whole burst is still admitted once the bucket is full, rather than never. Thread-safe. Tenant quotas and the
 * slowing of failed authentications both use it.
 */
public final class TokenBucket {

    private final double rate;
    private final double capacity;
    private final LongSupplier nanos;
    private double tokens;
    private long updated;

    public TokenBucket(double rate, double capacity, LongSupplier nanos) {
        if (!(rate > 0) || !(capacity > 0)) {
            throw new IllegalArgumentException("rate and capacity must be positive, got " + rate + ", " + capacity);
        }
        this.rate = rate;
        this.capacity = capacity;
        this.nanos = nanos;
        this.tokens = capacity;
        this.updated = nanos.getAsLong();
    }

    /**
     * Seconds until this bucket admits a request that will cost {@code cost} now: 0 when it admits it now. A bucket
     * in debt admits nothing; one that is not admits any request it can pay for, and one too large for the burst once
     * the bucket is full.
     */
    public synchronized double waitFor(double cost) {
        refill();
        double payable = Math.min(cost, capacity);
        return tokens >= payable ? 0 : (payable - tokens) / rate;
    }

    /** Takes {@code cost} tokens, into debt if need be. */
    public synchronized void take(double cost) {
        refill();
        tokens -= cost;
    }

    /** Tokens now (negative: debt), for tests and metrics. */
    public synchronized double tokens() {
        refill();
        return tokens;
    }

    private void refill() {
        long now = nanos.getAsLong();
        tokens = Math.min(capacity, tokens + (now - updated) / 1e9 * rate);
        updated = now;
    }
}
