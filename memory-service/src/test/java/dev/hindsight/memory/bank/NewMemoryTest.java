package dev.hindsight.memory.bank;

import static org.assertj.core.api.Assertions.assertThat;

import dev.hindsight.platform.tenant.TenantId;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;

class NewMemoryTest {

    private static final TenantId ACME = TenantId.of("acme");

    private static final NewMemory LESSON = new NewMemory("Add jitter to backoff", "retries",
            "Randomise each delay.", "success", List.of("retries"), List.of("s-1"));

    @Test
    void anIdenticalRecordHasTheSameId() {
        NewMemory again = new NewMemory("Add jitter to backoff", "retries", "Randomise each delay.", "success",
                List.of("other", "tags"), List.of("s-2"));

        assertThat(again.identity(ACME, "repo")).as("tags and source sessions are not what the memory says")
                .isEqualTo(LESSON.identity(ACME, "repo"));
    }

    @Test
    void anyDifferenceInWhatItSaysOrWhereIsAnotherId() {
        UUID id = LESSON.identity(ACME, "repo");

        assertThat(List.of(
                LESSON.identity(TenantId.of("other"), "repo"),
                LESSON.identity(ACME, "other"),
                new NewMemory("Add jitter to backoff!", "retries", "Randomise each delay.", "success", List.of(), List.of())
                        .identity(ACME, "repo"),
                new NewMemory("Add jitter to backoff", null, "Randomise each delay.", "success", List.of(), List.of())
                        .identity(ACME, "repo"),
                new NewMemory("Add jitter to backoff", "retries", "Randomise each delay", "success", List.of(), List.of())
                        .identity(ACME, "repo"),
                new NewMemory("Add jitter to backoff", "retries", "Randomise each delay.", "failure", List.of(), List.of())
                        .identity(ACME, "repo")))
                .doesNotContain(id).doesNotHaveDuplicates();
    }

    @Test
    void fieldsCannotBleedIntoEachOther() {
        // Without length prefixes "ab" + "c" and "a" + "bc" would hash the same bytes.
        NewMemory one = new NewMemory("ab", null, "c", "success", List.of(), List.of());
        NewMemory other = new NewMemory("a", null, "bc", "success", List.of(), List.of());

        assertThat(one.identity(TenantId.of("t"), "p")).isNotEqualTo(other.identity(TenantId.of("t"), "p"));
    }

    @Test
    void isANameBasedUuid() {
        UUID id = LESSON.identity(ACME, "repo");

        assertThat(id.version()).isEqualTo(5);
        assertThat(id.variant()).isEqualTo(2);
    }
}
