package dev.hindsight.platform;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.HexFormat;
import org.junit.jupiter.api.Test;

/** The fingerprint's bytes are exactly the documented ones (query-service's SQL hashes the same; tested there). */
class MessageFingerprintTest {

    @Test
    void hashesEachFieldAsItsLengthThenItsBytesWithAbsentOnesAsMinusOne() throws Exception {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        bytes.writeBytes(new byte[] {0, 0, 0, 9});
        bytes.writeBytes("assistant".getBytes(StandardCharsets.UTF_8));
        bytes.writeBytes(new byte[] {0, 0, 0, 3});
        bytes.writeBytes("hé".getBytes(StandardCharsets.UTF_8));
        bytes.writeBytes(new byte[] {0, 0, 0, 6});
        bytes.writeBytes("search".getBytes(StandardCharsets.UTF_8));
        bytes.writeBytes(new byte[] {-1, -1, -1, -1});
        String expected = HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes.toByteArray()));

        assertThat(MessageFingerprint.of("assistant", "hé", "search", null)).isEqualTo(expected).hasSize(64);
    }

    @Test
    void anyFieldChangesIt() {
        String base = MessageFingerprint.of("user", "hi", null, null);

        assertThat(MessageFingerprint.of("assistant", "hi", null, null)).isNotEqualTo(base);
        assertThat(MessageFingerprint.of("user", "hi!", null, null)).isNotEqualTo(base);
        assertThat(MessageFingerprint.of("user", "hi", "", null)).isNotEqualTo(base);
        assertThat(MessageFingerprint.of("user", "hi", null, "{}")).isNotEqualTo(base);
        assertThat(MessageFingerprint.of("user", "hi", null, null)).isEqualTo(base);
    }

    @Test
    void bytesCannotShiftBetweenFields() {
        assertThat(MessageFingerprint.of("user", "a", "b", null))
                .isNotEqualTo(MessageFingerprint.of("user", "a\u001fb", null, null))
                .isNotEqualTo(MessageFingerprint.of("usera", "", "b", null));
        assertThat(MessageFingerprint.of("user", "ab", "c", null))
                .isNotEqualTo(MessageFingerprint.of("user", "a", "bc", null));
    }

    @Test
    void theSqlNamesTheRowsColumnsUnderItsAlias() {
        assertThat(MessageFingerprint.sql("m")).contains("m.role").contains("m.content").contains("m.tool_name")
                .contains("m.tool_input");
    }
}
