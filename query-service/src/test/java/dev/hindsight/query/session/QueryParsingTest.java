package dev.hindsight.query.session;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.hindsight.platform.problem.ProblemException;
import dev.hindsight.platform.tenant.TenantId;
import dev.hindsight.query.reasoning.ReasoningQuery;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Parameter parsing and SQL shaping of the read API, and the legacy fallback of design.md § Backward compatibility,
 * without containers.
 */
class QueryParsingTest {

    @Test
    void aCursorRoundTripsAndAForgedOneIsA400() {
        var cursor = new SessionListing.Cursor(Instant.parse("2025-10-02T10:00:00.123456Z"), "chat|with|bars");
        var query = SessionListing.query(SessionListing.Filters.NONE, cursor.encode(), null);
        assertThat(query.after()).isEqualTo(cursor);
        assertThatThrownBy(() -> SessionListing.query(SessionListing.Filters.NONE, "bm90LWEtY3Vyc29y", null))
                .isInstanceOf(ProblemException.class);
    }

    @Test
    void onlyTheFiltersGivenReachTheStatementInOrder() {
        var query = SessionListing.query(
                new SessionListing.Filters("chat", null, "success", null, null, "2025-10-01", null), null, "10");
        List<Object> params = new ArrayList<>();
        String sql = query.sql(params, TenantId.of("tenant-a"));
        assertThat(sql).contains("kind = $2").contains("outcome = $3").contains("listed_at >= $4")
                .doesNotContain("model =").endsWith("LIMIT $5");
        assertThat(params).hasSize(5).last().isEqualTo(11);
    }

    @Test
    void everyInvalidParameterIsReportedAtOnce() {
        assertThatThrownBy(() -> SessionListing.query(new SessionListing.Filters("robot", "", "maybe", "judged",
                "no-equals", "2025-02-30", "soon"), null, "500"))
                .isInstanceOfSatisfying(ProblemException.class, e -> assertThat(e.problem().errors())
                        .extracting("field")
                        .containsExactly("kind", "outcome", "model", "qa_status", "label", "from", "to", "limit"));
    }

    @Test
    void aLabelFilterIsAKeyAndAValueSplitAtTheFirstEqualsSign() {
        var query = SessionListing.query(new SessionListing.Filters(null, null, null, "completed",
                "team=a=b", null, null), null, null);
        List<Object> params = new ArrayList<>();
        String sql = query.sql(params, TenantId.of("tenant-a"));
        assertThat(sql).contains("qa_status = $2").contains("labels @> $3");
        assertThat(params.get(2)).hasToString("{\"team\":\"a=b\"}");
    }

    @Test
    void reasoningFiltersFollowSeed000() {
        var filters = ReasoningQuery.Filters.parse("job", "2025-10-02", "gpt-5", "true");
        assertThat(filters.date()).isEqualTo(LocalDate.of(2025, 10, 2));
        assertThat(filters.includeFullConversation()).isTrue();
        assertThat(ReasoningQuery.Filters.parse(null, null, null, null).includeFullConversation()).isFalse();
        assertThatThrownBy(() -> ReasoningQuery.Filters.parse(null, "02/10/2025", null, null))
                .isInstanceOf(ProblemException.class);
        assertThat(filters.limit()).isEqualTo(ReasoningQuery.MAX_SESSIONS);
        assertThat(filters.after()).isNull();
    }

    @Test
    void aReasoningPageIsALimitAndACursorThisServiceWrote() {
        var first = ReasoningQuery.Filters.parse(null, null, null, null, "25", null);
        assertThat(first.limit()).isEqualTo(25);
        var cursor = new ReasoningQuery.Cursor("2025-10-02", "gpt-5", "", "s-1");
        var next = ReasoningQuery.Filters.parse(null, null, null, null, null, cursor.encode());
        assertThat(next.after()).isEqualTo(cursor);
        assertThat(ReasoningQuery.Filters.parse(null, null, null, null, null,
                new ReasoningQuery.Cursor("-infinity", "", "", "s-2").encode()).after().date()).isEqualTo("-infinity");

        for (String limit : List.of("0", "1001", "ten", "-3", "")) {
            assertThatThrownBy(() -> ReasoningQuery.Filters.parse(null, null, null, null, limit, null))
                    .isInstanceOfSatisfying(ProblemException.class, e -> assertThat(e.problem().errors())
                            .extracting("field").containsExactly("limit"));
        }
        String notJson = Base64.getUrlEncoder().encodeToString("hello".getBytes(StandardCharsets.UTF_8));
        String threeFields = Base64.getUrlEncoder().encodeToString("[\"2025-10-02\",\"m\",\"j\"]"
                .getBytes(StandardCharsets.UTF_8));
        String badDate = Base64.getUrlEncoder().encodeToString("[\"yesterday\",\"m\",\"j\",\"s\"]"
                .getBytes(StandardCharsets.UTF_8));
        String number = Base64.getUrlEncoder().encodeToString("[\"2025-10-02\",1,\"j\",\"s\"]"
                .getBytes(StandardCharsets.UTF_8));
        String nul = Base64.getUrlEncoder().encodeToString("[\"2025-10-02\",\"m\\u0000\",\"j\",\"s\"]"
                .getBytes(StandardCharsets.UTF_8));
        String farPast = Base64.getUrlEncoder().encodeToString("[\"-999999999-01-01\",\"m\",\"j\",\"s\"]"
                .getBytes(StandardCharsets.UTF_8));
        for (String cursorText : List.of("%%%", notJson, threeFields, badDate, number, nul, farPast)) {
            assertThatThrownBy(() -> ReasoningQuery.Filters.parse(null, null, null, null, null, cursorText))
                    .isInstanceOfSatisfying(ProblemException.class, e -> assertThat(e.problem().errors())
                            .extracting("field").containsExactly("cursor"));
        }
    }

    @Test
    void legacyReasoningComesFirstThenEachToolInListOrder() {
        JsonArray tools = new JsonArray().add(new JsonObject().put("tool_name", "a")).add(new JsonObject()
                .put("tool_name", "b").put("tool_error", "timeout"));
        JsonArray steps = SessionView.MessageView.reconstruct("I will check a, then b.", tools);
        assertThat(steps).hasSize(3);
        assertThat(steps.getJsonObject(0).getString("step_type")).isEqualTo("reasoning");
        assertThat(steps.getJsonObject(1).getString("tool_name")).isEqualTo("a");
        assertThat(steps.getJsonObject(2).getInteger("step_order")).isEqualTo(2);
        assertThat(steps.getJsonObject(2).getString("tool_error")).isEqualTo("timeout");
        assertThat(SessionView.MessageView.reconstruct(null, tools)).hasSize(2);
    }
}
