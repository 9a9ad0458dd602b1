package dev.hindsight.platform.limit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.util.Random;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class TokenBucketTest {

    private final AtomicLong now = new AtomicLong(1_000_000_000L);

    private TokenBucket bucket(double rate, double capacity) {
        return new TokenBucket(rate, capacity, now::get);
    }

    private void advance(double seconds) {
        now.addAndGet((long) (seconds * 1e9));
    }

    @Test
    void aFullBucketAdmitsUpToItsCapacityThenWaitsForTheRefill() {
        TokenBucket bucket = bucket(100, 300);
        assertThat(bucket.waitFor(300)).isZero();
        bucket.take(300);
        assertThat(bucket.waitFor(1)).isCloseTo(0.01, within(1e-9));
        assertThat(bucket.waitFor(50)).isCloseTo(0.5, within(1e-9));
        advance(0.5);
        assertThat(bucket.waitFor(50)).isZero();
    }

    @Test
    void aBucketInDebtAdmitsNothingUntilTheDebtIsRepaid() {
        TokenBucket bucket = bucket(100, 300);
        assertThat(bucket.waitFor(0)).isZero();
        bucket.take(1_000);
        assertThat(bucket.tokens()).isCloseTo(-700, within(1e-9));
        assertThat(bucket.waitFor(0)).isCloseTo(7.0, within(1e-9));
        advance(6.99);
        assertThat(bucket.waitFor(0)).isCloseTo(0.01, within(1e-6));
        advance(0.01);
        assertThat(bucket.waitFor(0)).isZero();
    }

    @Test
    void aRequestLargerThanTheBurstIsAdmittedOnceTheBucketIsFullNotNever() {
        TokenBucket bucket = bucket(10, 30);
        assertThat(bucket.waitFor(1_000)).isZero();
        bucket.take(25);
        assertThat(bucket.waitFor(1_000)).isCloseTo(2.5, within(1e-9));
        advance(2.5);
        assertThat(bucket.waitFor(1_000)).isZero();
    }

    @Test
    void aQuietSpellNeverBanksMoreThanTheCapacity() {
        TokenBucket bucket = bucket(100, 300);
        advance(3_600);
        assertThat(bucket.tokens()).isEqualTo(300);
        bucket.take(300);
        assertThat(bucket.waitFor(1)).isPositive();
    }

    @Test
    void overAnyStretchOfTimeAGreedyCallerGetsTheRateAndTheBurstNoMore() {
        Random random = new Random(11);
        for (int trial = 0; trial < 200; trial++) {
            double rate = 1 + random.nextInt(1_000);
            double capacity = rate * (0.5 + random.nextInt(5));
            TokenBucket bucket = bucket(rate, capacity);
            double taken = 0;
            double largest = 0;
            double elapsed = 0;
            for (int step = 0; step < 2_000; step++) {
                double cost = 1 + random.nextInt((int) rate);
                if (bucket.waitFor(cost) == 0) {
                    bucket.take(cost);
                    taken += cost;
                    largest = Math.max(largest, cost);
                }
                double tick = random.nextDouble() * 0.01;
                advance(tick);
                elapsed += tick;
            }
            assertThat(taken).as("rate %s capacity %s", rate, capacity)
                    .isLessThanOrEqualTo(capacity + rate * elapsed + largest + 1e-6);
            // And it is not starved: it got at least the rate less one request over the stretch.
            assertThat(taken).isGreaterThanOrEqualTo(rate * elapsed - 2 * largest - capacity);
        }
    }

    @Test
    void aBucketNeedsARateAndACapacity() {
        assertThatThrownBy(() -> bucket(0, 10)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> bucket(10, 0)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> bucket(Double.NaN, 10)).isInstanceOf(IllegalArgumentException.class);
    }
}
