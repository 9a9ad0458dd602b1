package dev.hindsight.query.memory;

import dev.hindsight.memorymodel.confidence.ProjectWeights;
import dev.hindsight.memorymodel.confidence.SignalCounts;
import dev.hindsight.memorymodel.confidence.SignalKind;
import dev.hindsight.platform.redact.SecretScrubber;
import dev.hindsight.query.console.ConsolePaths;
import dev.hindsight.query.console.Text;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * The memory pages' view models: a project's memories (a list or a search's answer) and one memory with the evidence
 * behind its confidence. Memory text is scrubbed of secrets, as memory-service's API scrubs what it returns.
 */
final class MemoryPage {

    private static final SecretScrubber SCRUBBER = new SecretScrubber();

    private MemoryPage() {
    }

    /** A memory in a list: {@code similarity} is set for a search's hits. */
    public record Row(String id, String href, String title, String outcome, String origin, String confidence,
            long usage, List<String> tags, String recordedAt, String similarity, boolean probation) {
    }

    /** The list of a project's memories, or the answer to a search in it. */
    public record ListPage(String project, String query, String order, List<Row> rows, String next, String newestHref,
            String confidenceHref, String minConfidence) {

        public boolean searched() {
            return query != null;
        }
    }

    /** A signal kind's totals and the weight its kind has in the project now. */
    public record Evidence(String kind, long positive, String negative, String weight) {
    }

    /** A session the memory names: linked when the read model holds it. */
    public record SessionRef(String id, String href) {
    }

    public record SignalRow(String kind, String verdict, String source, SessionRef session, String at) {
    }

    public record DayRow(String day, long explicitPositive, long explicitNegative, long usage, long outcomePositive,
            long outcomeNegative) {
    }

    public record MergeRow(SessionRef session, String similarity, String at) {
    }

    /** One memory's page. */
    public record Detail(String id, String project, String projectHref, String title, String description,
            String content, String outcome, String origin, String via, String confidence, String confidenceBar,
            List<String> tags, String recordedAt, String updatedAt, List<Evidence> evidence,
            List<SessionRef> sources, List<SignalRow> signals, List<DayRow> days, List<MergeRow> merges) {
    }

    static ListPage list(String project, MemoryQueries.Page page, String order) {
        List<Row> rows = page.memories().stream().map(m -> row(m, null, false)).toList();
        String next = page.next() == null ? null : projectHref(project) + "?order=" + order
                + ("confidence".equals(order) ? "&page=" : "&after=") + encode(page.next());
        return new ListPage(project, null, order, rows, next, projectHref(project),
                projectHref(project) + "?order=confidence", null);
    }

    static ListPage search(String project, String query, List<MemoryQueries.Hit> hits, double minConfidence) {
        List<Row> rows = hits.stream().map(h -> row(h.memory(), h.similarity(), h.probation())).toList();
        return new ListPage(project, query, "relevance", rows, null, projectHref(project),
                projectHref(project) + "?order=confidence", plain(minConfidence));
    }

    static Detail detail(MemoryQueries.Detail d) {
        MemoryView m = d.memory();
        SignalCounts c = m.counts();
        ProjectWeights w = m.weights();
        List<Evidence> evidence = List.of(
                new Evidence("explicit feedback (helpful / unhelpful)", c.explicitPositive(),
                        String.valueOf(c.explicitNegative()),
                        plain(w.weight(SignalKind.EXPLICIT))),
                new Evidence("usage (retrieved)", c.usage(), "", plain(w.weight(SignalKind.USAGE))),
                new Evidence("outcomes (succeeded / failed)", c.outcomePositive(), String.valueOf(c.outcomeNegative()),
                        plain(w.weight(SignalKind.OUTCOME))));
        Set<String> known = d.knownSessions();
        List<SignalRow> signals = new ArrayList<>(d.signals().size());
        for (MemoryQueries.Signal s : d.signals()) {
            String verdict = switch (s.kind()) {
                case "explicit" -> s.positive() ? "helpful" : "unhelpful";
                case "outcome" -> s.positive() ? "succeeded" : "failed";
                default -> "retrieved";
            };
            signals.add(new SignalRow(s.kind(), verdict, s.source(), session(s.sessionId(), known), time(s.at())));
        }
        List<DayRow> days = d.days().stream().map(day -> new DayRow(day.day().toString(),
                day.counts().explicitPositive(), day.counts().explicitNegative(), day.counts().usage(),
                day.counts().outcomePositive(), day.counts().outcomeNegative())).toList();
        List<MergeRow> merges = d.merges().stream()
                .map(merge -> new MergeRow(session(merge.sessionId(), known), plain(merge.similarity()),
                        time(merge.at()))).toList();
        double confidence = m.confidence();
        return new Detail(m.id().toString(), m.project(), projectHref(m.project()), SCRUBBER.scrub(m.title()),
                SCRUBBER.scrub(m.description()), SCRUBBER.scrub(m.content()), m.outcome(), origin(m), m.via(),
                plain(confidence), String.valueOf(Math.round(confidence * 200)), m.tags(), time(m.recordedAt()),
                time(m.updatedAt()), evidence,
                m.sourceSessionIds().stream().map(id -> session(id, known)).toList(), signals, days, merges);
    }

    private static Row row(MemoryView m, Double similarity, boolean probation) {
        return new Row(m.id().toString(), ConsolePaths.MEMORIES + "/" + m.id(), SCRUBBER.scrub(m.title()),
                m.outcome(), origin(m), plain(m.confidence()), m.counts().usage(), m.tags(), time(m.recordedAt()),
                similarity == null ? null : plain(similarity), probation);
    }

    private static SessionRef session(String id, Set<String> known) {
        if (id == null) {
            return null;
        }
        return new SessionRef(id, known.contains(id) ? ConsolePaths.session(id) : null);
    }

    static String projectHref(String project) {
        return ConsolePaths.PROJECTS + "/" + ConsolePaths.segment(project) + "/memories";
    }

    private static String origin(MemoryView m) {
        return m.origin().name().toLowerCase(Locale.ROOT);
    }

    /** Two decimals: what a reader compares (the API gives four). */
    static String plain(double value) {
        return String.format(Locale.ROOT, "%.2f", value);
    }

    private static String time(Instant at) {
        return Text.when(at.atOffset(ZoneOffset.UTC));
    }

    private static String encode(String value) {
        return URLEncoder.encode(value, StandardCharsets.UTF_8);
    }
}
