package dev.hindsight.memory.bank;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;

class NewMemoryTest {

    private static final NewMemory LESSON = new NewMemory("Add jitter to backoff", "retries",
            "Randomise each delay.", "success", List.of("retries"), List.of("s-1"));

    @Test
    void anIdenticalRecordHasTheSameId() {
        NewMemory again = new NewMemory("Add jitter to backoff", "retries", "Randomise each delay.", "success",
                List.of("other", "tags"), List.of("s-2"));

        assertThat(again.identity("acme", "repo")).as("tags and source sessions are not what the memory says")
                .isEqualTo(LESSON.identity("acme", "repo"));
    }

    @Test
    void anyDifferenceInWhatItSaysOrWhereIsAnotherId() {
        UUID id = LESSON.identity("acme", "repo");

        assertThat(List.of(
                LESSON.identity("other", "repo"),
                LESSON.identity("acme", "other"),
                new NewMemory("Add jitter to backoff!", "retries", "Randomise each delay.", "success", List.of(), List.of())
                        .identity("acme", "repo"),
                new NewMemory("Add jitter to backoff", null, "Randomise each delay.", "success", List.of(), List.of())
                        .identity("acme", "repo"),
                new NewMemory("Add jitter to backoff", "retries", "Randomise each delay", "success", List.of(), List.of())
                        .identity("acme", "repo"),
                new NewMemory("Add jitter to backoff", "retries", "Randomise each delay.", "failure", List.of(), List.of())
                        .identity("acme", "repo")))
                .doesNotContain(id).doesNotHaveDuplicates();
    }

    @Test
    void fieldsCannotBleedIntoEachOther() {
        // Without length prefixes "ab" + "c" and "a" + "bc" would hash the same bytes.
        NewMemory one = new NewMemory("ab", null, "c", "success", List.of(), List.of());
        NewMemory other = new NewMemory("a", null, "bc", "success", List.of(), List.of());

        assertThat(one.identity("t", "p")).isNotEqualTo(other.identity("t", "p"));
    }

    @Test
    void isANameBasedUuid() {
        UUID id = LESSON.identity("acme", "repo");

        assertThat(id.version()).isEqualTo(5);
        assertThat(id.variant()).isEqualTo(2);
    }
}
