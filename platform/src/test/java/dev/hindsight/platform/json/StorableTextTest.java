package dev.hindsight.platform.json;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Random;
import org.junit.jupiter.api.Test;

class StorableTextTest {

    @Test
    void everyCharacterButNulAndLoneSurrogatesIsStorable() {
        StringBuilder all = new StringBuilder();
        for (int c = 1; c < Character.MIN_SURROGATE; c++) {
            all.append((char) c);
        }
        for (int c = Character.MAX_SURROGATE + 1; c <= 0xFFFF; c++) {
            all.append((char) c);
        }
        all.appendCodePoint(0x1F600).appendCodePoint(0x10FFFF).appendCodePoint(0x10000);
        assertThat(StorableText.problem(all)).isNull();
        assertThat(StorableText.problem("")).isNull();
        assertThat(StorableText.problem((CharSequence) null)).isNull();
    }

    @Test
    void nulIsRefusedWithItsPosition() {
        assertThat(StorableText.problem("ab\u0000c")).startsWith("contains the NUL character (U+0000) at character 2");
        assertThat(StorableText.problem("\u0000")).contains("at character 0");
    }

    @Test
    void aLoneSurrogateIsRefusedWhereverItStands() {
        assertThat(StorableText.problem("x\uD800")).isEqualTo("contains a lone surrogate (U+D800) at character 1, "
                + "which is not Unicode and cannot be stored as sent; send the character it stands for");
        assertThat(StorableText.problem("\uDC00x")).contains("(U+DC00) at character 0");
        assertThat(StorableText.problem("\uD800\uD800\uDC00")).contains("(U+D800) at character 0");
        // A low surrogate after a complete pair is alone again.
        assertThat(StorableText.problem("\uD83D\uDE00\uDE00")).contains("(U+DE00) at character 2");
    }

    @Test
    void nonFiniteNumbersAreRefused() {
        assertThat(StorableText.problem(1e308)).isNull();
        assertThat(StorableText.problem(-0.0)).isNull();
        assertThat(StorableText.problem(Double.POSITIVE_INFINITY)).contains("beyond the range");
        assertThat(StorableText.problem(Double.NEGATIVE_INFINITY)).contains("beyond the range");
        assertThat(StorableText.problem(Double.NaN)).contains("beyond the range");
    }

    @Test
    void repairedReplacesExactlyWhatIsRefusedAndKeepsTheRest() {
        assertThat(StorableText.repaired("a\u0000b\uD800c\uD83D\uDE00")).isEqualTo("a\uFFFDb\uFFFDc\uD83D\uDE00");
        String fine = "tab\tnewline\n\u0001 \uD83D\uDE00";
        assertThat(StorableText.repaired(fine)).isSameAs(fine);
        Random random = new Random(7);
        for (int i = 0; i < 2_000; i++) {
            StringBuilder text = new StringBuilder();
            for (int j = random.nextInt(12); j > 0; j--) {
                text.append((char) (random.nextBoolean() ? random.nextInt(4) : 0xD7FE + random.nextInt(0x0804)));
            }
            String repaired = StorableText.repaired(text.toString());
            assertThat(StorableText.problem(repaired)).as("repaired %s", text).isNull();
            assertThat(repaired).hasSameSizeAs(text);
        }
    }
}
