package dev.hindsight.query.ops;

import dev.hindsight.memorymodel.search.SearchModel;
import dev.hindsight.platform.auth.Scopes;
import dev.hindsight.platform.erasure.ErasureLog;
import dev.hindsight.query.console.ConsoleAccess;
import dev.hindsight.query.console.Layout;
import dev.hindsight.query.console.Text;
import dev.hindsight.query.memory.MemoryVectors;
import dev.hindsight.query.readmodel.Generations;
import io.quarkus.qute.CheckedTemplate;
import io.quarkus.qute.TemplateInstance;
import io.smallrye.mutiny.Uni;
import jakarta.annotation.security.PermitAll;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.core.UriInfo;
import java.util.List;
import java.util.Map;
import org.eclipse.microprofile.openapi.annotations.Operation;

/**
 * The operations page, for keys with the admin scope: read-model generations and how far a rebuild has come, which
 * embedding model the memory search uses and how far a new one's vectors have come, every consumer group's lag and
 * every dead-letter topic's count. Kafka's part and PostgreSQL's are read independently:
 * when one does not answer, the page says so and still shows the other.
 */
@Path("/ui")
@PermitAll
@Produces(MediaType.TEXT_HTML)
class OpsPages {

    /** What the page shows; a part that could not be read carries the reason instead. */
    public record Ops(List<Generation> generations, String generationsError, Embedding embedding,
            String embeddingError, List<KafkaOverview.GroupLag> groups, String groupsError,
            List<KafkaOverview.DeadLetters> deadLetters, String deadLettersError, List<Erasure> erasures) {

        public long deadLettered() {
            return deadLetters == null ? 0 : deadLetters.stream().mapToLong(KafkaOverview.DeadLetters::records).sum();
        }
    }

    public record Generation(int generation, String state, String createdAt, long backfilledEvents,
            String backfillDoneAt, String switchedAt, String retiredAt) {

        static Generation of(Generations.Status s) {
            return new Generation(s.generation(), s.state(), Text.when(s.createdAt()), s.backfilledEvents(),
                    Text.when(s.backfillDoneAt()), Text.when(s.switchedAt()),
                    Text.when(s.retiredAt()));
        }
    }

    /** The memory search's vector generations, as counted in the current read model (design.md § Re-embedding). */
    public record Embedding(String searchModel, String configuredModel, boolean building, long memories,
            List<ModelVectors> vectors) {

        static Embedding of(SearchModel.State state) {
            return new Embedding(state.current(), state.preferred(), state.building(), state.memories(),
                    state.vectors().entrySet().stream().sorted(Map.Entry.comparingByKey())
                            .map(e -> new ModelVectors(e.getKey(), e.getValue())).toList());
        }
    }

    public record ModelVectors(String model, long vectors) {
    }

    /**
     * One erasure of the viewer's tenant, as the erasure log says (ADR 0028): never what was erased, only what was
     * named (a subject as the start of its keyed hash), how much, and which read models applied it when.
     */
    public record Erasure(String id, String requestedAt, String requestedBy, String selector, String selectorHash,
            int sessions, String status, List<String> applied) {

        static Erasure of(ErasureLog.Erasure e) {
            List<String> applied = new java.util.ArrayList<>();
            for (String service : ErasureLog.READ_MODELS) {
                ErasureLog.Applied done = e.applied().get(service);
                applied.add(done == null ? service + ": pending" : service + ": "
                        + Text.when(done.at().atOffset(java.time.ZoneOffset.UTC)) + " " + done.erased().entrySet()
                                .stream().filter(c -> c.getValue() > 0).map(c -> c.getKey() + " " + c.getValue())
                                .collect(java.util.stream.Collectors.joining(", ")));
            }
            return new Erasure(e.id(), Text.when(e.requestedAt().atOffset(java.time.ZoneOffset.UTC)), e.principal(),
                    e.selector().toLowerCase(java.util.Locale.ROOT),
                    e.selectorHash() == null ? null : e.selectorHash().substring(0, 12), e.sessionIds().size(),
                    e.complete() ? "complete" : "pending", applied);
        }
    }

    private final ConsoleAccess access;
    private final Generations generations;
    private final KafkaOverview kafka;
    private final MemoryVectors vectors;

    private final ErasureLog erasures;

    public OpsPages(ConsoleAccess access, Generations generations, KafkaOverview kafka, MemoryVectors vectors,
            ErasureLog erasures) {
        this.erasures = erasures;
        this.access = access;
        this.generations = generations;
        this.kafka = kafka;
        this.vectors = vectors;
    }

    @GET
    @Path("ops")
    @Operation(hidden = true)
    public Uni<Response> ops(@Context UriInfo uri) {
        return access.page(uri, Scopes.ADMIN, viewer -> Uni.combine().all().unis(
                        generations.list().map(list -> list.stream().map(Generation::of).toList())
                                .map(Part::of).onFailure().recoverWithItem(Part::failed),
                        vectors.refresh().map(Embedding::of).map(Part::of).onFailure().recoverWithItem(Part::failed),
                        kafka.lag().map(Part::of).onFailure().recoverWithItem(Part::failed),
                        kafka.deadLetters().map(Part::of).onFailure().recoverWithItem(Part::failed)).asTuple()
                .map(parts -> ConsoleAccess.html(200, Templates.ops(new Layout(viewer, "Operations"), new Ops(
                        parts.getItem1().value(), parts.getItem1().error(), parts.getItem2().value(),
                        parts.getItem2().error(), parts.getItem3().value(), parts.getItem3().error(),
                        parts.getItem4().value(), parts.getItem4().error(), erasures.newest(200).stream()
                                .filter(e -> e.tenant().equals(viewer.tenant())).limit(50).map(Erasure::of)
                                .toList())).render())));
    }

    /** One part of the page: its value, or why it could not be read. */
    private record Part<T>(T value, String error) {

        static <T> Part<T> of(T value) {
            return new Part<>(value, null);
        }

        static <T> Part<T> failed(Throwable e) {
            return new Part<>(null, e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage());
        }
    }

    /** This page's templates (src/main/resources/templates/console); every expression is checked at build time. */
    @CheckedTemplate(basePath = "console", defaultName = CheckedTemplate.HYPHENATED_ELEMENT_NAME)
    static final class Templates {

        static native TemplateInstance ops(Layout layout, OpsPages.Ops ops);

        private Templates() {
        }
    }
}
