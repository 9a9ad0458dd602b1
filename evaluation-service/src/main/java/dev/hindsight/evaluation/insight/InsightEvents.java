package dev.hindsight.evaluation.insight;

import dev.hindsight.evaluation.judge.Judgement;
import dev.hindsight.evaluation.judge.RubricDimension;
import dev.hindsight.evaluation.outbox.Outbox;
import dev.hindsight.events.EventHeader;
import dev.hindsight.events.HindsightTopic;
import dev.hindsight.events.insights.InsightEvent;
import dev.hindsight.events.insights.InsightStatus;
import dev.hindsight.events.insights.MessageSummarized;
import dev.hindsight.events.insights.RubricScore;
import dev.hindsight.events.insights.SessionSummarized;
import dev.hindsight.events.insights.TraceJudged;
import dev.hindsight.platform.kafka.EventHeaders;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Instant;
import java.util.UUID;

/**
 * Builds the {@code hindsight.insights.v1} events. Event ids are derived from what was judged (tenant, session, kind,
 * message), so the same insight published twice is one event to every consumer.
 */
public final class InsightEvents {

    /** The producer identity evaluation-service writes under. */
    public static final String PRINCIPAL = "evaluation-service";

    private InsightEvents() {
    }

    public static Outbox.Event messageSummarized(InsightJob job, String summary, String failure, String summarizer,
            Clock clock) {
        Instant now = clock.instant();
        MessageSummarized payload = MessageSummarized.newBuilder()
                .setMessageIndex(job.messageIndex())
                .setStatus(failure == null ? InsightStatus.COMPLETED : InsightStatus.FAILED)
                .setSummary(failure == null ? summary : null)
                .setFailureReason(failure)
                .setSummarizer(summarizer)
                .setAttempts(job.attempts())
                .setProducedAt(now)
                .build();
        return event(job, payload, summarizer, clock);
    }

    public static Outbox.Event sessionSummarized(InsightJob job, String summary, String failure, String summarizer,
            Clock clock) {
        SessionSummarized payload = SessionSummarized.newBuilder()
                .setStatus(failure == null ? InsightStatus.COMPLETED : InsightStatus.FAILED)
                .setSummary(failure == null ? summary : null)
                .setFailureReason(failure)
                .setSummarizer(summarizer)
                .setAttempts(job.attempts())
                .setProducedAt(clock.instant())
                .build();
        return event(job, payload, summarizer, clock);
    }

    public static Outbox.Event traceJudged(InsightJob job, Judgement judgement, String failure, String judge,
            Clock clock) {
        TraceJudged.Builder payload = TraceJudged.newBuilder()
                .setStatus(failure == null ? InsightStatus.COMPLETED : InsightStatus.FAILED)
                .setFailureReason(failure)
                .setJudge(judge)
                .setAttempts(job.attempts())
                .setJudgedAt(clock.instant());
        if (failure == null) {
            payload.setOverallScore(judgement.overallScore());
            payload.setRubric(judgement.dimensions().stream().map(InsightEvents::score).toList());
        }
        return event(job, payload.build(), judge, clock);
    }

    private static RubricScore score(RubricDimension dimension) {
        return RubricScore.newBuilder()
                .setDimension(dimension.name())
                .setScore(dimension.score())
                .setEvidenceEventIds(dimension.evidenceEventIds())
                .setRationale(dimension.rationale())
                .build();
    }

    private static Outbox.Event event(InsightJob job, Object payload, String producedBy, Clock clock) {
        UUID id = eventId(job);
        EventHeader header = EventHeaders.create(id, job.tenant(), PRINCIPAL, producedBy, null, clock);
        InsightEvent envelope = InsightEvent.newBuilder()
                .setHeader(header)
                .setSessionId(job.sessionId())
                .setPayload(payload)
                .build();
        return new Outbox.Event(HindsightTopic.INSIGHTS, job.sessionId(), id, envelope);
    }

    /** One id per insight: tenant, session, kind and message. */
    static UUID eventId(InsightJob job) {
        return UUID.nameUUIDFromBytes(("insight/" + job.tenant().value() + "/" + job.sessionId() + "/"
                + job.kind().wireName() + "/" + job.messageIndex()).getBytes(StandardCharsets.UTF_8));
    }
}
