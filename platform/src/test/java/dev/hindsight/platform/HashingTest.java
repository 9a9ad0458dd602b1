package dev.hindsight.platform;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.UUID;
import org.junit.jupiter.api.Test;

class HashingTest {

    @Test
    void aVersion3NameBasedUuidIsTheJdksForTheSameName() throws Exception {
        // Ingest derives event ids this way: an id must never change between releases, or a retried request
        // after an upgrade would be a new event. The JDK's own RFC 4122 version 3 UUID is the reference.
        for (String name : new String[] {"", "hindsight", "tenant\u0000session\u0000message-7", "é✓😀"}) {
            byte[] bytes = name.getBytes(StandardCharsets.UTF_8);

            UUID ours = Hashing.nameBasedUuid(MessageDigest.getInstance("MD5").digest(bytes), 3);

            assertThat(ours).isEqualTo(UUID.nameUUIDFromBytes(bytes));
        }
    }

    @Test
    void aLongerHashGivesItsFirst16BytesWithTheVersionAndVariantSet() throws Exception {
        byte[] sha = MessageDigest.getInstance("SHA-256").digest("x".getBytes(StandardCharsets.UTF_8));

        UUID id = Hashing.nameBasedUuid(sha, 5);

        assertThat(id.version()).isEqualTo(5);
        assertThat(id.variant()).isEqualTo(2);
        assertThat(id.getMostSignificantBits() >>> 16).as("the bytes before the version nibble")
                .isEqualTo(((sha[0] & 0xffL) << 40 | (sha[1] & 0xffL) << 32 | (sha[2] & 0xffL) << 24
                        | (sha[3] & 0xffL) << 16 | (sha[4] & 0xffL) << 8 | (sha[5] & 0xffL)));
    }
}
