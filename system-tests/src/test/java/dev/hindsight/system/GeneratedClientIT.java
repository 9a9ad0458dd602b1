package dev.hindsight.system;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.hindsight.client.ingest.api.SessionsApi;
import dev.hindsight.client.ingest.model.AppendMessages;
import dev.hindsight.client.ingest.model.Chat;
import dev.hindsight.client.ingest.model.CompleteSession;
import dev.hindsight.client.ingest.model.Kind;
import dev.hindsight.client.ingest.model.Message;
import dev.hindsight.client.ingest.model.Role;
import dev.hindsight.client.ingest.model.SessionAccepted;
import dev.hindsight.client.ingest.model.StartSession;
import dev.hindsight.client.ingest.model.StepType;
import dev.hindsight.client.ingest.model.ThinkingStep;
import dev.hindsight.client.memory.api.MemoriesApi;
import dev.hindsight.client.memory.model.MemoryJson;
import dev.hindsight.client.memory.model.RecordMemory;
import dev.hindsight.client.memory.model.Search;
import dev.hindsight.client.memory.model.SearchResult;
import dev.hindsight.client.query.model.MessageView;
import dev.hindsight.client.query.model.SessionView;
import dev.hindsight.system.RunningSystem.Service;
import dev.hindsight.testing.TestTenants;
import java.time.Duration;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * A user's first day with the published contracts: Java clients generated at build time from the OpenAPI documents
 * the services publish (openapi-generator, see system-tests/pom.xml), used as generated, against the running system
 * on the real broker, registry and PostgreSQL. A field the document names differently from the wire, a required field
 * the service does not send, or a type the client cannot read fails here, on the call that meets it.
 */
class GeneratedClientIT {

    private static RunningSystem system;

    @BeforeAll
    static void startSystem() {
        system = RunningSystem.shared();
    }

    @Test
    void aSessionWithThinkingStepsIsRecordedReadBackAndItsLessonSearched() throws Exception {
        String project = "generated-" + UUID.randomUUID().toString().substring(0, 8);
        String sessionId = "generated-client-" + UUID.randomUUID();
        OffsetDateTime started = OffsetDateTime.of(2026, 11, 27, 9, 0, 0, 0, ZoneOffset.UTC);

        // Producer: start a chat session, append a question and an answer with its thinking steps, complete it.
        SessionsApi sessions = new SessionsApi(ingestClient());
        SessionAccepted start = sessions.startSession(new StartSession().sessionId(sessionId).kind(Kind.CHAT)
                .startedAt(started).chat(new Chat().agent("generated-client").model("gpt-4o-mini"))
                .labels(Map.of("project", project)), null);
        assertThat(start.getSessionId()).isEqualTo(sessionId);
        Message question = new Message().messageIndex(0).role(Role.USER).timestamp(started.plusSeconds(1))
                .content("The nightly build fails with OutOfMemoryError in the test JVM. What do I change?");
        Message answer = new Message().messageIndex(1).role(Role.ASSISTANT).timestamp(started.plusSeconds(20))
                .content("Raise the forked test JVM's heap: surefire's argLine -Xmx2g; the default was too small.")
                .thinkingSteps(List.of(
                        new ThinkingStep().stepOrder(0).stepType(StepType.REASONING)
                                .content("An OutOfMemoryError in tests points at the forked JVM's heap."),
                        new ThinkingStep().stepOrder(1).stepType(StepType.TOOL).toolName("read_file")
                                .toolArguments(Map.of("path", "pom.xml"))
                                .toolResult("<argLine>-Xmx256m</argLine>"),
                        new ThinkingStep().stepOrder(2).stepType(StepType.REASONING)
                                .content("256 MB is too little for the suite; 2 GB leaves room.")));
        sessions.appendMessages(sessionId, new AppendMessages().messages(List.of(question, answer)), null);
        sessions.completeSession(sessionId, new CompleteSession().outcome(CompleteSession.OutcomeEnum.SUCCESS)
                .completedAt(started.plusMinutes(1)), null);

        // Dashboard: read the session back, messages in order and the answer's steps in exact order.
        var readSessions = new dev.hindsight.client.query.api.SessionsApi(queryClient());
        SessionView session = await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(200))
                .ignoreExceptionsInstanceOf(dev.hindsight.client.query.ApiException.class)
                .until(() -> readSessions.getSession(sessionId, null),
                        read -> read.getCompletedAt() != null && read.getMessages().size() == 2);
        assertThat(session.getKind()).isEqualTo("chat");
        assertThat(session.getOutcome()).isEqualTo("success");
        assertThat(session.getStartedAt()).isEqualTo(started);
        assertThat(session.getLabels()).containsEntry("project", project);
        assertThat(session.getTotalMessages()).isEqualTo(2);
        MessageView read = session.getMessages().get(1);
        assertThat(read.getRole()).isEqualTo("assistant");
        assertThat(read.getContent()).isEqualTo(answer.getContent());
        assertThat(read.getThinkingSteps()).extracting(step -> step.getStepOrder(), step -> step.getStepType(),
                        step -> step.getToolName())
                .containsExactly(org.assertj.core.groups.Tuple.tuple(0, "reasoning", null),
                        org.assertj.core.groups.Tuple.tuple(1, "tool", "read_file"),
                        org.assertj.core.groups.Tuple.tuple(2, "reasoning", null));
        assertThat(read.getThinkingSteps().get(1).getToolArguments()).isEqualTo(Map.of("path", "pom.xml"));
        // Older readers get the same message as reasoning text and a tool list, marked as derived
        // (design.md § Backward compatibility).
        assertThat(read.getReasoningAndToolsDerived()).isTrue();
        assertThat(read.getTools()).extracting(tool -> tool.getToolName()).containsExactly("read_file");

        // Agent: the completed session is distilled into the project's memories; a lesson recorded explicitly is
        // found by a query worded differently.
        MemoriesApi memories = new MemoriesApi(memoryClient());
        await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(500))
                .ignoreExceptionsInstanceOf(dev.hindsight.client.memory.ApiException.class)
                .until(() -> memories.listMemories(project, null, 100).getMemories().stream()
                        .anyMatch(memory -> memory.getSourceSessionIds().contains(sessionId)));
        MemoryJson lesson = memories.recordMemory(project, new RecordMemory()
                .title("Raise the test JVM heap when tests run out of memory")
                .content("OutOfMemoryError in the nightly build came from surefire's argLine -Xmx256m; -Xmx2g fixed it.")
                .outcome("success").tags(List.of("maven", "memory")).sourceSessionIds(List.of(sessionId)));
        assertThat(lesson.getConfidence()).isEqualTo(0.8);
        SearchResult found = memories.searchMemories(project,
                new Search().query("tests crash because the JVM has too little heap").limit(5));
        assertThat(found.getMemories()).extracting(MemoryJson::getId).contains(lesson.getId());
        assertThat(found.getMemories().get(0).getSimilarity()).isNotNull();
    }

    private static dev.hindsight.client.ingest.ApiClient ingestClient() {
        var client = new dev.hindsight.client.ingest.ApiClient();
        client.updateBaseUri(system.url(Service.INGEST));
        client.setRequestInterceptor(request -> request.header("Authorization", TestTenants.TENANT_A.bearer()));
        return client;
    }

    private static dev.hindsight.client.query.ApiClient queryClient() {
        var client = new dev.hindsight.client.query.ApiClient();
        client.updateBaseUri(system.url(Service.QUERY));
        client.setRequestInterceptor(request -> request.header("Authorization", TestTenants.TENANT_A.bearer()));
        return client;
    }

    private static dev.hindsight.client.memory.ApiClient memoryClient() {
        var client = new dev.hindsight.client.memory.ApiClient();
        client.updateBaseUri(system.url(Service.MEMORY));
        client.setRequestInterceptor(request -> request.header("Authorization", TestTenants.TENANT_A.bearer()));
        return client;
    }
}
