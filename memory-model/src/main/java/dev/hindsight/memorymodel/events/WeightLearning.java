package dev.hindsight.memorymodel.events;

import dev.hindsight.events.memory.WeightVote;
import dev.hindsight.events.memory.WeightVotes;
import dev.hindsight.memorymodel.confidence.ProjectWeights;
import java.util.ArrayList;
import java.util.List;

/**
 * How a projection of {@code hindsight.memory.v1} learns a project's signal weights from explicit feedback
 * (LearnFromFeedback in design.md § Signal weights, decided once by memory-service and carried in the event as votes):
 * a project's weights start at {@link ProjectWeights#PRIORS}, and each vote adds one to its kind's alpha (the kind's
 * prediction agreed with the feedback) or beta (it contradicted it); an abstention adds nothing. Adding commutes, so
 * the order in which feedback is applied does not matter.
 */
public final class WeightLearning {

    private WeightLearning() {
    }

    /** The priors as (alpha, beta) for explicit, usage and outcome: a project's first row starts from them. */
    public static List<Object> priors() {
        ProjectWeights p = ProjectWeights.PRIORS;
        return List.of(p.explicit().alpha(), p.explicit().beta(), p.usage().alpha(), p.usage().beta(),
                p.outcome().alpha(), p.outcome().beta());
    }

    /** What {@code votes} add to (alpha, beta) of explicit, usage and outcome, in that order. */
    public static List<Object> increments(WeightVotes votes) {
        List<Object> increments = new ArrayList<>(6);
        for (WeightVote vote : List.of(votes.getExplicit(), votes.getUsage(), votes.getOutcome())) {
            increments.add(vote == WeightVote.AGREED ? 1.0 : 0.0);
            increments.add(vote == WeightVote.CONTRADICTED ? 1.0 : 0.0);
        }
        return increments;
    }
}
