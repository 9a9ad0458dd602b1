package dev.hindsight.query.readmodel;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class DoorkeeperTest {

    @Test
    void aKeyIsRememberedFromItsFirstSighting() {
        Doorkeeper doorkeeper = new Doorkeeper();

        assertThat(doorkeeper.remember("session-1")).isFalse();
        assertThat(doorkeeper.remember("session-1")).isTrue();
        assertThat(doorkeeper.remember("session-1")).isTrue();
    }

    @Test
    void keysNeverSeenAreMostlyReportedUnseenEvenWhenTheFilterIsNearlyFull() {
        Doorkeeper doorkeeper = new Doorkeeper();
        for (int i = 0; i < Doorkeeper.WINDOW - 10_001; i++) {
            doorkeeper.remember("seen-" + i);
        }
        int falsePositives = 0;
        for (int i = 0; i < 10_000; i++) {
            if (doorkeeper.remember("other-" + i)) {
                falsePositives++;
            }
        }
        // Two probes into 2^20 bits holding ~2^17 keys: about 5% expected.
        assertThat(falsePositives).isBetween(1, 1_000);
    }

    @Test
    void everythingIsForgottenOnceTheWindowIsFull() {
        Doorkeeper doorkeeper = new Doorkeeper();
        doorkeeper.remember("early");
        assertThat(doorkeeper.remember("early")).isTrue();

        int added = 1;
        for (int i = 0; added < Doorkeeper.WINDOW; i++) {
            if (!doorkeeper.remember("filler-" + i)) {
                added++;
            }
        }

        assertThat(doorkeeper.remember("early")).isFalse();
    }
}
