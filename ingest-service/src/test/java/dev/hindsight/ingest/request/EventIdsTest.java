package dev.hindsight.ingest.request;

import static org.assertj.core.api.Assertions.assertThat;

import dev.hindsight.platform.tenant.TenantId;
import java.nio.charset.StandardCharsets;
import java.util.Random;
import java.util.UUID;
import org.junit.jupiter.api.Test;

class EventIdsTest {

    @Test
    void streamingDigestIsTheNameBasedUuidOfTheJoinedParts() {
        Random random = new Random(7);
        for (int i = 0; i < 500; i++) {
            String[] parts = new String[1 + random.nextInt(6)];
            for (int p = 0; p < parts.length; p++) {
                parts[p] = random.nextInt(10) == 0 ? "null" : randomText(random);
            }
            EventIds.Digest digest = EventIds.digest(parts[0]);
            for (int p = 1; p < parts.length; p++) {
                digest.add(parts[p].equals("null") ? null : parts[p]);
            }
            UUID expected = UUID.nameUUIDFromBytes(String.join("\u001f", parts).getBytes(StandardCharsets.UTF_8));
            assertThat(digest.uuid()).isEqualTo(expected).isEqualTo(EventIds.derived(parts));
        }
    }

    @Test
    void theDigestHashesExactlyTheUtf8OfTheJoinedPartsWhateverTheirSizeAndText() {
        Random random = new Random(11);
        String[] alphabet = {"a", "Z", "0", " ", "\u0000", "\u007f", "\u0080", "é", "\u00ff", "Ā", "漢", "🙂",
            "\ud800", "\udfff", "\u001f"};
        for (int i = 0; i < 300; i++) {
            Object[] parts = new Object[1 + random.nextInt(8)];
            for (int p = 0; p < parts.length; p++) {
                parts[p] = switch (random.nextInt(6)) {
                    case 0 -> null;
                    case 1 -> random.nextInt();
                    default -> {
                        // Mostly short, sometimes around 16 KB and far beyond it.
                        int size = switch (random.nextInt(5)) {
                            case 0 -> 16 * 1024 - 2 + random.nextInt(4);
                            case 1 -> random.nextInt(70_000);
                            default -> random.nextInt(300);
                        };
                        boolean ascii = random.nextBoolean();
                        StringBuilder text = new StringBuilder(size);
                        for (int c = 0; c < size; c++) {
                            text.append(ascii ? alphabet[random.nextInt(3)] : alphabet[random.nextInt(alphabet.length)]);
                        }
                        yield text.toString();
                    }
                };
            }
            EventIds.Digest digest = EventIds.digest(parts[0] == null ? null : String.valueOf(parts[0]));
            StringBuilder joined = new StringBuilder(String.valueOf(parts[0]));
            for (int p = 1; p < parts.length; p++) {
                digest.add(parts[p]);
                joined.append('\u001f').append(parts[p]);
            }
            assertThat(digest.uuid()).as("parts %d", i)
                    .isEqualTo(UUID.nameUUIDFromBytes(joined.toString().getBytes(StandardCharsets.UTF_8)));
        }
    }

    @Test
    void wellFormedIdsAreExactlyThoseThePatternMatches() {
        java.util.regex.Pattern pattern = java.util.regex.Pattern.compile(EventIds.PATTERN);
        String alphabet = "aZ09._:-/ #\u00e9\u0400\n";
        Random random = new Random(11);
        int wellFormed = 0;
        for (int i = 0; i < 20_000; i++) {
            StringBuilder id = new StringBuilder();
            for (int n = random.nextInt(6); n > 0; n--) {
                id.append(alphabet.charAt(random.nextInt(alphabet.length())));
            }
            boolean expected = pattern.matcher(id).matches();
            assertThat(EventIds.isWellFormed(id.toString())).as("'%s'", id).isEqualTo(expected);
            wellFormed += expected ? 1 : 0;
        }
        assertThat(wellFormed).as("both outcomes are exercised").isBetween(1_000, 19_000);
        assertThat(EventIds.isWellFormed(null)).isFalse();
        assertThat(EventIds.isWellFormed("session-2025-10-02:gpt_5.v1")).isTrue();
    }

    @Test
    void idempotencyKeysAreScopedByTenantAndItem() {
        assertThat(EventIds.fromIdempotencyKey(TenantId.of("a"), "k", "x"))
                .isEqualTo(EventIds.fromIdempotencyKey(TenantId.of("a"), "k", "x"))
                .isNotEqualTo(EventIds.fromIdempotencyKey(TenantId.of("b"), "k", "x"))
                .isNotEqualTo(EventIds.fromIdempotencyKey(TenantId.of("a"), "k", "y"));
    }

    private static String randomText(Random random) {
        StringBuilder text = new StringBuilder();
        for (int n = random.nextInt(40); n > 0; n--) {
            text.append((char) (random.nextBoolean() ? 'a' + random.nextInt(26) : 0x400 + random.nextInt(200)));
        }
        return text.toString();
    }
}
