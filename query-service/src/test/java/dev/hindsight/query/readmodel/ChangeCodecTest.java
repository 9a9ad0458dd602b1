package dev.hindsight.query.readmodel;

import static org.assertj.core.api.Assertions.assertThat;

import dev.hindsight.platform.tenant.TenantId;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

class ChangeCodecTest {

    private static final Instant AT = Instant.parse("2025-10-02T10:00:00.123Z");

    @Test
    void aChangeSurvivesTheRoundTripWithItsTradingDay() {
        Change started = new Change(TenantId.of("tenant-a"), "session", "s-1", AT,
                new Change.TradingDay("job-1", LocalDate.of(2025, 10, 2), "gpt-5"));
        Change summarized = new Change(TenantId.of("tenant-a"), "session_summarized", "s-1", AT);

        List<String> payloads = ChangeCodec.encode(List.of(started, summarized));

        assertThat(payloads).hasSize(1);
        assertThat(ChangeCodec.decode(payloads.get(0))).containsExactly(started, summarized);
    }

    @Test
    void aTradingDayWithoutJobOrModelKeepsThemAbsent() {
        Change change = new Change(TenantId.of("t"), "session", "s", AT, new Change.TradingDay(null, LocalDate.of(2025, 1, 1), null));

        assertThat(ChangeCodec.decode(ChangeCodec.encode(List.of(change)).get(0))).containsExactly(change);
    }

    @Test
    void separatorsAndPercentSignsInsideFieldsAreEscaped() {
        Change odd = new Change(TenantId.of("ten%ant\u001f"), "decision_set", "id\u001e%1F%", AT);

        String payload = ChangeCodec.encode(List.of(odd, odd)).get(0);

        assertThat(payload.chars().filter(c -> c == '\u001e').count()).isEqualTo(1);
        assertThat(ChangeCodec.decode(payload)).containsExactly(odd, odd);
    }

    @Test
    void payloadsStayUnderTheLimitInBytesNotCharacters() {
        List<Change> changes = new ArrayList<>();
        for (int i = 0; i < 500; i++) {
            changes.add(new Change(TenantId.of("tenant-ü"), "session", "séance-" + i + "-日本", AT));
        }

        List<String> payloads = ChangeCodec.encode(changes, 1000);

        assertThat(payloads).hasSizeGreaterThan(1);
        List<Change> decoded = new ArrayList<>();
        for (String payload : payloads) {
            assertThat(payload.getBytes(StandardCharsets.UTF_8).length).isLessThanOrEqualTo(1000);
            decoded.addAll(ChangeCodec.decode(payload));
        }
        assertThat(decoded).isEqualTo(changes);
    }

    @Test
    void aChangeTooLargeForAnyPayloadBecomesEverything() {
        Change huge = new Change(TenantId.of("t"), "session", "x".repeat(9000), AT);
        Change small = new Change(TenantId.of("t"), "session", "s", AT);

        List<Change> decoded = new ArrayList<>();
        ChangeCodec.encode(List.of(small, huge, small)).forEach(p -> decoded.addAll(ChangeCodec.decode(p)));

        assertThat(decoded).extracting(Change::kind).containsExactly("session", ChangeCodec.EVERYTHING, "session");
    }

    @Test
    void aMalformedRecordIsReadAsEverythingNeverSkipped() {
        assertThat(ChangeCodec.decode("session\u001ft\u001fs")).extracting(Change::kind)
                .containsExactly(ChangeCodec.EVERYTHING);
        assertThat(ChangeCodec.decode("session\u001ft\u001fs\u001fnot-a-number\u001f\u001f\u001f"))
                .extracting(Change::kind).containsExactly(ChangeCodec.EVERYTHING);
        assertThat(ChangeCodec.decode("session\u001ft%4\u001fs\u001f1\u001f\u001f\u001f")).extracting(Change::kind)
                .containsExactly(ChangeCodec.EVERYTHING);
        assertThat(ChangeCodec.decode("")).isEmpty();
    }

    @Test
    void randomChangesRoundTripThroughAnyPayloadSize() {
        Random random = new Random(42);
        String alphabet = "ab%\u001e\u001fé日-_:.";
        for (int round = 0; round < 200; round++) {
            List<Change> changes = new ArrayList<>();
            for (int i = random.nextInt(30); i > 0; i--) {
                Change.TradingDay day = random.nextBoolean() ? null
                        : new Change.TradingDay(text(random, alphabet), LocalDate.ofEpochDay(random.nextInt(30000)),
                                text(random, alphabet));
                changes.add(new Change(TenantId.of("t" + text(random, alphabet)), text(random, alphabet), text(random, alphabet),
                        Instant.ofEpochMilli(random.nextLong(0, 4_000_000_000_000L)), day));
            }
            int max = 200 + random.nextInt(2000);
            List<Change> decoded = new ArrayList<>();
            for (String payload : ChangeCodec.encode(changes, max)) {
                assertThat(payload.getBytes(StandardCharsets.UTF_8).length).isLessThanOrEqualTo(max);
                decoded.addAll(ChangeCodec.decode(payload));
            }
            assertThat(decoded).isEqualTo(changes);
        }
    }

    /** Non-empty: an empty job id or model is read back as absent, which the encoder cannot tell apart. */
    private static String text(Random random, String alphabet) {
        StringBuilder text = new StringBuilder();
        for (int i = 1 + random.nextInt(12); i > 0; i--) {
            text.append(alphabet.charAt(random.nextInt(alphabet.length())));
        }
        return text.toString();
    }
}
