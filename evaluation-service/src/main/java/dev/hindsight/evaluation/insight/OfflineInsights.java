package dev.hindsight.evaluation.insight;

import dev.hindsight.evaluation.judge.Judgement;
import dev.hindsight.evaluation.judge.RubricJudge;
import dev.hindsight.evaluation.judge.Trace;
import dev.hindsight.evaluation.summary.ExtractiveSummarizer;
import dev.hindsight.evaluation.summary.SessionDigest;
import io.smallrye.mutiny.Uni;
import java.util.Optional;

/** The default summarizer and judge: deterministic, offline, no model; the same input always gives the same output. */
final class OfflineInsights {

    private OfflineInsights() {
    }

    /** {@link ExtractiveSummarizer} behind the asynchronous interface. */
    public static Summarizer summarizer() {
        ExtractiveSummarizer extractive = new ExtractiveSummarizer();
        return new Summarizer() {
            @Override
            public String id() {
                return ExtractiveSummarizer.ID;
            }

            @Override
            public Uni<String> summarizeMessage(String content) {
                return Uni.createFrom().item(() -> extractive.summarizeMessage(content));
            }

            @Override
            public Optional<String> summarizeMessageInline(String content) {
                return Optional.of(extractive.summarizeMessage(content));
            }

            @Override
            public Uni<String> summarizeSession(SessionDigest digest) {
                return Uni.createFrom().item(() -> extractive.summarizeSession(digest));
            }
        };
    }

    /** {@link RubricJudge} behind the asynchronous interface. */
    public static Judge judge() {
        RubricJudge rubric = new RubricJudge();
        return new Judge() {
            @Override
            public String id() {
                return rubric.id();
            }

            @Override
            public Uni<Judgement> judge(Trace trace) {
                return Uni.createFrom().item(() -> rubric.judge(trace));
            }
        };
    }
}
