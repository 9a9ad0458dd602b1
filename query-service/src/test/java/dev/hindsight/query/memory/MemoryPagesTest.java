package dev.hindsight.query.memory;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.hindsight.events.EventHeader;
import dev.hindsight.events.ProducerIdentity;
import dev.hindsight.events.memory.Embedding;
import dev.hindsight.events.memory.MemoryDeleted;
import dev.hindsight.events.memory.MemoryEvent;
import dev.hindsight.events.memory.MemoryMerged;
import dev.hindsight.events.memory.MemoryOrigin;
import dev.hindsight.events.memory.MemoryOutcome;
import dev.hindsight.events.memory.MemoryRecorded;
import dev.hindsight.events.memory.MemorySignalKind;
import dev.hindsight.events.memory.MemorySignalRecorded;
import dev.hindsight.events.memory.ProjectPurged;
import dev.hindsight.events.memory.WeightVote;
import dev.hindsight.events.memory.WeightVotes;
import dev.hindsight.events.reasoning.SessionKind;
import dev.hindsight.events.reasoning.SessionStarted;
import dev.hindsight.memorymodel.embedding.Embeddings;
import dev.hindsight.memorymodel.events.EmbeddingVectors;
import dev.hindsight.memorymodel.search.SearchRule;
import dev.hindsight.query.console.ConsoleCookie;
import dev.hindsight.query.console.SignedIn;
import dev.hindsight.query.console.Text;
import dev.hindsight.testing.HindsightTestResource;
import dev.hindsight.testing.SameSubjectMemories;
import dev.hindsight.testing.TestEvents;
import dev.hindsight.testing.TestTenants;
import dev.hindsight.testing.TestTopics;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.response.Response;
import jakarta.inject.Inject;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * The console's memory pages over query-service's projection of {@code hindsight.memory.v1}: memory events written to
 * the real topic as memory-service writes them (with real MiniLM embeddings), read back as a person reads the pages.
 */
@QuarkusTest
@QuarkusTestResource(HindsightTestResource.class)
class MemoryPagesTest {

    private static final String TOPIC = "hindsight.memory.v1";
    private static final Duration WAIT = Duration.ofSeconds(30);
    /** On the hour, so that the seconds after it that the tests use are all one day. */
    private static final Instant T0 = Instant.now().truncatedTo(ChronoUnit.HOURS).minus(Duration.ofHours(1));

    @Inject
    Embeddings embeddings;

    @Test
    void aProjectIsListedNewestFirstOrByConfidenceAndSearchedAsAgentsSearchIt() {
        String project = "repo-" + UUID.randomUUID();
        UUID retry = record(project, T0, MemoryOrigin.EXPLICIT, "Retry flaky HTTP calls with exponential backoff",
                "Wrap calls to the payments API in a retry with exponential backoff and jitter, at most 5 attempts.");
        UUID cache = record(project, T0.plusSeconds(1), MemoryOrigin.DISTILLED, "Invalidate the cache on schema change",
                "After a schema migration, clear the query cache or readers keep decoding rows with the old layout.");
        UUID locks = record(project, T0.plusSeconds(2), MemoryOrigin.EXPLICIT, "Take locks in one global order",
                "Two transactions deadlocked because they locked accounts in opposite order; sort account ids first.");
        // Three helpful ratings raise 'locks' above 'retry' (both explicit); the same event delivered twice counts once.
        MemoryEvent helpful = signal(project, locks, T0.plusSeconds(3), MemorySignalKind.EXPLICIT, true, null, null);
        write(helpful);
        write(helpful);
        write(signal(project, locks, T0.plusSeconds(4), MemorySignalKind.EXPLICIT, true, null, null));
        write(signal(project, locks, T0.plusSeconds(5), MemorySignalKind.EXPLICIT, true, null, null));
        String cookie = SignedIn.cookie(TestTenants.TENANT_A);
        String list = "/ui/projects/" + project + "/memories";

        // Three signal rows (the duplicate is one) once the last signal, after the duplicate on its partition, is in.
        await().atMost(WAIT).untilAsserted(() -> assertThat(rows(page(cookie, "/ui/memories/" + locks), "signal-row"))
                .hasSize(3));
        await().atMost(WAIT).untilAsserted(() -> assertThat(ids(page(cookie, list))).hasSize(3));
        assertThat(ids(page(cookie, list))).as("newest first").containsExactly(locks, cache, retry);
        String byConfidence = page(cookie, list + "?order=confidence");
        assertThat(ids(byConfidence)).containsExactly(locks, retry, cache);
        assertThat(cell(byConfidence, retry, "confidence")).isEqualTo("0.80");
        assertThat(cell(byConfidence, cache, "confidence")).isEqualTo("0.60");
        assertThat(Double.parseDouble(cell(byConfidence, locks, "confidence"))).isGreaterThan(0.8);
        String locksPage = page(cookie, "/ui/memories/" + locks);
        assertThat(text(locksPage, "td class=\"number positive\"")).as("helpful ratings, the duplicate counted once")
                .isEqualTo("3");

        // A question in the agent's words finds the lesson. The distilled memory (0.60) is below the 0.7 minimum: a
        // search shows it only in its probation slot, marked, as memory-service's search does; a list marks nothing.
        String deadlock = page(cookie, list + "?q=" + encode("why did my two database transactions deadlock?"));
        assertThat(ids(deadlock).get(0)).isEqualTo(locks);
        assertThat(deadlock).contains("Searching here records no usage");
        String schema = page(cookie, list + "?q=" + encode("readers decode rows wrongly after a migration"));
        assertThat(ids(schema).get(0)).isEqualTo(cache);
        assertThat(cell(schema, cache, "probation")).isEqualTo("on probation");
        assertThat(cell(schema, cache, "confidence")).isEqualTo("0.60 ");
        assertThat(cell(schema, retry, "probation")).isNull();
        assertThat(page(cookie, list)).doesNotContain("class=\"probation\"");
        // The console only reads: searching recorded no usage of the memories it found.
        assertThat(cell(page(cookie, list), locks, "usage")).isEqualTo("0");
        assertThat(page(cookie, "/ui/projects")).contains(">" + project + "<");
    }

    /** The console ranks as memory-service does: by relevance (design.md § Semantic search). */
    @Test
    void aSearchRanksByWhatTheQuestionAddsBeyondTheProjectsCommonSubject() {
        String project = "same-" + UUID.randomUUID();
        String cookie = SignedIn.cookie(TestTenants.TENANT_A);
        UUID lesson = recordSameSubject(embeddings, project, cookie);

        String found = page(cookie, "/ui/projects/" + project + "/memories?q=" + encode(SameSubjectMemories.QUESTION));

        assertThat(ids(found).get(0)).isEqualTo(lesson);
    }

    /**
     * Records {@link SameSubjectMemories}' crowd and then its lesson into {@code project} of tenant A, waits until the
     * console lists all 61 (so a search reads the whole project's centre), and answers the lesson's id.
     */
    static UUID recordSameSubject(Embeddings embeddings, String project, String cookie) {
        Instant at = T0;
        for (SameSubjectMemories.Text memory : SameSubjectMemories.sameSubject()) {
            record(embeddings, null, project, at = at.plusSeconds(1), MemoryOrigin.EXPLICIT, memory.title(),
                    memory.content());
        }
        UUID lesson = record(embeddings, null, project, at.plusSeconds(1), MemoryOrigin.EXPLICIT,
                SameSubjectMemories.LESSON.title(), SameSubjectMemories.LESSON.content());
        // The second page by confidence holds the last 11.
        await().atMost(WAIT).untilAsserted(() -> assertThat(ids(page(cookie, "/ui/projects/" + project
                + "/memories?order=confidence&page=1"))).hasSize(61 - MemoryPages.PAGE_SIZE));
        return lesson;
    }

    @Test
    void aMemoryShowsItsEvidenceSourcesMergesAndHistoryWithLinksToKnownSessions() {
        String project = "repo-" + UUID.randomUUID();
        String known = "session-" + UUID.randomUUID();
        String unknown = "session-" + UUID.randomUUID();
        TestEvents.session("tenant-a", known, SessionStarted.newBuilder().setKind(SessionKind.CHAT).setStartedAt(T0)
                .build());
        UUID memory = UUID.randomUUID();
        write(event(project, memory, T0, MemoryRecorded.newBuilder().setOrigin(MemoryOrigin.DISTILLED)
                .setTitle("Pin the JDK in CI <script>alert(1)</script>").setContent("Builds broke on a new JDK.")
                .setOutcome(MemoryOutcome.FAILURE).setTags(List.of("ci", "jdk")).setSourceSessionIds(List.of(unknown))
                .setEmbedding(embedding(embeddings, "Pin the JDK in CI. Builds broke on a new JDK."))
                .setVia("distiller").build()));
        String merged = "Builds broke on a new JDK; pin it with a toolchain. Token ghp_" + "a".repeat(36) + " leaked.";
        write(event(project, memory, T0.plusSeconds(1), MemoryMerged.newBuilder().setContent(merged)
                .setTags(List.of("ci", "jdk")).setSourceSessionIds(List.of(unknown, known)).setMergedSessionId(known)
                .setSimilarity(0.93).setEmbedding(embedding(embeddings, "Pin the JDK in CI. " + merged)).build()));
        write(signal(project, memory, T0.plusSeconds(2), MemorySignalKind.USAGE, true, known, null));
        write(signal(project, memory, T0.plusSeconds(3), MemorySignalKind.OUTCOME, false, known, null));
        // Explicit feedback that usage had predicted: the project's usage weight learns (Beta(5,5) -> Beta(6,5)).
        write(signal(project, memory, T0.plusSeconds(4), MemorySignalKind.EXPLICIT, true, null,
                WeightVotes.newBuilder().setExplicit(WeightVote.ABSTAINED).setUsage(WeightVote.AGREED)
                        .setOutcome(WeightVote.CONTRADICTED).build()));
        String cookie = SignedIn.cookie(TestTenants.TENANT_A);

        // The memory's last signal, and the known session, which comes on another topic, are both in.
        await().atMost(WAIT).untilAsserted(() -> assertThat(page(cookie, "/ui/memories/" + memory))
                .contains("<td>explicit</td><td>helpful</td>").contains("href=\"/ui/sessions/" + known + "\""));
        String page = page(cookie, "/ui/memories/" + memory);
        assertThat(page).contains("Pin the JDK in CI &lt;script&gt;alert(1)&lt;/script&gt;").doesNotContain("<script>alert");
        assertThat(page).contains("pin it with a toolchain").contains("[REDACTED:").doesNotContain("ghp_aaaa");
        assertThat(page).contains("<a class=\"source-link\" href=\"/ui/sessions/" + known + "\">" + known + "</a>")
                .contains(unknown + " <span class=\"muted\">(not in the read model)</span>");
        assertThat(page).contains("<td class=\"number\">0.93</td>");
        assertThat(rows(page, "evidence-row")).containsExactly(
                List.of("explicit feedback (helpful / unhelpful)", "1", "0", "0.70"),
                List.of("usage (retrieved)", "1", "", "0.55"),
                List.of("outcomes (succeeded / failed)", "0", "1", "0.45"));
        assertThat(rows(page, "signal-row")).extracting(row -> row.get(0) + " " + row.get(1))
                .containsExactly("explicit helpful", "outcome failed", "usage retrieved");
        assertThat(rows(page, "day-row")).hasSize(1);
        assertThat(rows(page, "day-row").get(0).subList(1, 6)).containsExactly("1", "0", "1", "0", "1");
    }

    @Test
    void deletedAndPurgedMemoriesAreGoneAndAnotherTenantFindsNothing() {
        String project = "repo-" + UUID.randomUUID();
        String purgeKey = "project:" + project;
        String memoryKey = UUID.randomUUID().toString();
        // The purge covers memories recorded up to T0 + 5 s. 'kept' (recorded after it) follows it on its partition,
        // so once 'kept' shows, the purge has been applied.
        write(purgeKey, MemoryEvent.newBuilder().setHeader(header(T0.plusSeconds(5))).setProjectId(project)
                .setPayload(ProjectPurged.newBuilder().build()).build());
        UUID kept = record(purgeKey, project, T0.plusSeconds(10), MemoryOrigin.EXPLICIT, "Kept", "After the purge.");
        // On another partition: a memory deleted, one recorded before the purge but delivered after it, then 'last',
        // which shows only after both were applied.
        UUID deleted = record(memoryKey, project, T0.plusSeconds(11), MemoryOrigin.EXPLICIT, "Deleted", "Soon gone.");
        write(memoryKey, event(project, deleted, T0.plusSeconds(12), MemoryDeleted.newBuilder().setReason("t").build()));
        UUID late = record(memoryKey, project, T0, MemoryOrigin.EXPLICIT, "Purged", "Before the purge, delivered after.");
        UUID last = record(memoryKey, project, T0.plusSeconds(13), MemoryOrigin.EXPLICIT, "Last", "After the others.");
        String cookie = SignedIn.cookie(TestTenants.TENANT_A);
        String list = "/ui/projects/" + project + "/memories";

        await().atMost(WAIT).untilAsserted(() -> assertThat(ids(page(cookie, list))).contains(kept, last));
        assertThat(ids(page(cookie, list))).containsExactly(last, kept);
        assertThat(given().cookie(ConsoleCookie.NAME, cookie).when().get("/ui/memories/" + late).statusCode())
                .isEqualTo(404);
        assertThat(given().cookie(ConsoleCookie.NAME, cookie).when().get("/ui/memories/" + deleted).statusCode())
                .isEqualTo(404);

        String other = SignedIn.cookie(TestTenants.TENANT_B);
        Response foreign = given().cookie(ConsoleCookie.NAME, other).when().get("/ui/memories/" + kept);
        assertThat(foreign.statusCode()).isEqualTo(404);
        assertThat(foreign.body().asString()).contains("No memory " + kept + " for this tenant").doesNotContain("Kept");
        assertThat(given().cookie(ConsoleCookie.NAME, other).when().get(list).statusCode()).isEqualTo(404);
        assertThat(given().cookie(ConsoleCookie.NAME, other).when().get(list + "?q=kept").statusCode()).isEqualTo(404);
        assertThat(given().cookie(ConsoleCookie.NAME, cookie).when().get("/ui/memories/not-a-uuid").statusCode())
                .isEqualTo(404);
    }

    @Test
    void aBadParameterIsA400PageThatSaysWhichAndASignedOutVisitIsSentToSignIn() {
        String cookie = SignedIn.cookie(TestTenants.TENANT_A);
        String list = "/ui/projects/anything/memories";
        Response sideways = given().cookie(ConsoleCookie.NAME, cookie).when().get(list + "?order=sideways&page=-1");
        assertThat(sideways.statusCode()).isEqualTo(400);
        assertThat(sideways.body().asString()).contains("must be newest or confidence")
                .contains("must be a whole number from 0 to 10000");
        Response cursor = given().cookie(ConsoleCookie.NAME, cookie).when().get(list + "?after=yesterday");
        assertThat(cursor.statusCode()).isEqualTo(400);
        assertThat(cursor.body().asString()).contains("is not a cursor this list gave");
        Response controls = given().urlEncodingEnabled(false).cookie(ConsoleCookie.NAME, cookie).when().get(list + "?q=%01%02%20%1F");
        assertThat(controls.statusCode()).isEqualTo(400);
        assertThat(controls.body().asString()).contains("must contain text, not only spaces or control characters");
        // Characters the embedding model reads nothing in (no-break and em spaces, a replacement character, a
        // combining accent): a 400 naming q, as the fuzz test's truncated UTF-8 found, not a 500.
        Response invisible = given().urlEncodingEnabled(false).cookie(ConsoleCookie.NAME, cookie).when()
                .get(list + "?q=%C2%A0%E2%80%83%EF%BF%BD%CC%81");
        assertThat(invisible.statusCode()).isEqualTo(400);
        assertThat(invisible.body().asString()).contains("has no words the embedding model can read");
        Response longQuery = given().cookie(ConsoleCookie.NAME, cookie).when().get(list + "?q=" + "x".repeat(4_001));
        assertThat(longQuery.statusCode()).isEqualTo(400);
        assertThat(given().redirects().follow(false).when().get("/ui/memories/" + UUID.randomUUID()).header("Location"))
                .contains("/ui/sign-in?next=%2Fui%2Fmemories%2F");
    }

    private UUID record(String project, Instant at, MemoryOrigin origin, String title, String content) {
        return record(null, project, at, origin, title, content);
    }

    private UUID record(String key, String project, Instant at, MemoryOrigin origin, String title, String content) {
        return record(embeddings, key, project, at, origin, title, content);
    }

    /** Records a memory under {@code key} (null: its id, as memory-service keys it). */
    private static UUID record(Embeddings embeddings, String key, String project, Instant at, MemoryOrigin origin,
            String title, String content) {
        UUID id = UUID.randomUUID();
        write(key == null ? id.toString() : key, event(project, id, at, MemoryRecorded.newBuilder().setOrigin(origin).setTitle(title).setContent(content)
                .setOutcome(MemoryOutcome.SUCCESS)
                .setEmbedding(embedding(embeddings, SearchRule.embeddingText(title, null, content)))
                .setVia(origin == MemoryOrigin.EXPLICIT ? "rest" : "distiller").build()));
        return id;
    }

    private static Embedding embedding(Embeddings embeddings, String text) {
        return EmbeddingVectors.embedding(embeddings.preferred(),
                embeddings.embed(embeddings.preferred(), text).await().atMost(Duration.ofSeconds(60)));
    }

    private static MemoryEvent signal(String project, UUID memory, Instant at, MemorySignalKind kind, boolean positive,
            String session, WeightVotes votes) {
        return event(project, memory, at, MemorySignalRecorded.newBuilder().setKind(kind).setPositive(positive)
                .setSessionId(session).setSource(kind == MemorySignalKind.USAGE ? "search" : "rest")
                .setWeightVotes(votes).build());
    }

    static MemoryEvent event(String project, UUID memory, Instant at, Object payload) {
        return MemoryEvent.newBuilder().setHeader(header(at)).setProjectId(project).setMemoryId(memory.toString())
                .setPayload(payload).build();
    }

    /** As memory-service writes it: recorded_at is when the bank recorded the change (a purge compares it). */
    private static EventHeader header(Instant at) {
        return EventHeader.newBuilder().setEventId(UUID.randomUUID()).setTenantId("tenant-a").setOccurredAt(at)
                .setRecordedAt(at).setProducer(ProducerIdentity.newBuilder().setPrincipal("memory-service").build())
                .build();
    }

    private static void write(MemoryEvent event) {
        write(event.getMemoryId(), event);
    }

    private static void write(String key, MemoryEvent event) {
        TestTopics.write(TOPIC, key, event);
    }

    static String page(String cookie, String path) {
        Response answer = given().urlEncodingEnabled(false).cookie(ConsoleCookie.NAME, cookie).when().get(path);
        assertThat(answer.statusCode()).as(path + ": " + answer.body().asString()).isEqualTo(200);
        return answer.body().asString();
    }

    static List<UUID> ids(String page) {
        List<UUID> ids = new ArrayList<>();
        Matcher m = Pattern.compile("class=\"memory-row\" data-id=\"([0-9a-f-]{36})\"").matcher(page);
        while (m.find()) {
            ids.add(UUID.fromString(m.group(1)));
        }
        return ids;
    }

    /** The text of the cell with class {@code column} in the row of {@code memory}, or null without that row. */
    private static String cell(String page, UUID memory, String column) {
        int row = page.indexOf("data-id=\"" + memory + "\"");
        if (row < 0) {
            return null;
        }
        String rest = page.substring(row, page.indexOf("</tr>", row));
        Matcher m = Pattern.compile("class=\"[^\"]*\\b" + column + "\">([^<]*)<").matcher(rest);
        return m.find() ? m.group(1) : null;
    }

    private static String text(String page, String opening) {
        int at = page.indexOf("<" + opening + ">");
        return page.substring(at + opening.length() + 2, page.indexOf('<', at + 1));
    }

    /** Each row of class {@code rowClass} as the texts of its cells. */
    private static List<List<String>> rows(String page, String rowClass) {
        List<List<String>> rows = new ArrayList<>();
        Matcher row = Pattern.compile("<tr class=\"" + rowClass + "\">(.*?)</tr>", Pattern.DOTALL).matcher(page);
        while (row.find()) {
            List<String> cells = new ArrayList<>();
            Matcher cell = Pattern.compile("<td[^>]*>(.*?)</td>", Pattern.DOTALL).matcher(row.group(1));
            while (cell.find()) {
                cells.add(cell.group(1).replaceAll("<[^>]+>", "").strip());
            }
            rows.add(cells);
        }
        return rows;
    }

    static String encode(String text) {
        return URLEncoder.encode(text, StandardCharsets.UTF_8);
    }
}
