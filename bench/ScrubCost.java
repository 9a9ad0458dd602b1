import dev.hindsight.platform.redact.JsonRedaction;
import dev.hindsight.platform.redact.SecretScrubber;

/**
 * What redacting one message's text costs ingest, in ns per call of {@link JsonRedaction#redact}: the batch benchmark's
 * 200 characters holding no secret, and 200 characters of prose that names tokens and passwords (where the scrubber's
 * assignment rule has to look). Not part of CI.
 *   mvn -q -pl platform install -DskipTests
 *   mvn -q -pl platform dependency:build-classpath -Dmdep.outputFile=/tmp/platform.cp
 *   java -cp platform/target/classes:$(cat /tmp/platform.cp) bench/ScrubCost.java
 */
public class ScrubCost {

    public static void main(String[] args) {
        JsonRedaction redaction = new JsonRedaction(new SecretScrubber());
        String filler = "x".repeat(200);
        String prose = "The export drops its last row because the loop stops one short; use splitlines() and keep "
                + "the header. Tokens per call were fine, the password reset flow is unrelated to this bug at all.";
        for (String text : new String[] {filler, prose}) {
            long sink = 0;
            double best = Double.MAX_VALUE;
            for (int round = 0; round < 5; round++) {
                long start = System.nanoTime();
                for (int i = 0; i < 2_000_000; i++) {
                    sink += redaction.redact(text).length();
                }
                best = Math.min(best, (System.nanoTime() - start) / 2_000_000.0);
            }
            System.out.printf("%-12s %4d chars: %.0f ns per redact (best of 5 rounds; %d)%n",
                    text == filler ? "no secret" : "prose", text.length(), best, sink % 10);
        }
    }
}
