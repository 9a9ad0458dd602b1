package dev.hindsight.memorymodel.confidence;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** Given a memory's earlier signals, when a person rates it, then how the project's weights move. */
class ProjectWeightsTest {

    private static final SignalCounts RETRIEVED = new SignalCounts(0, 0, 3, 0, 0);

    @Test
    void the_priors_are_seed_004s_seven_to_three_and_five_to_five() {
        assertThat(ProjectWeights.PRIORS.explicit()).isEqualTo(new Beta(7, 3));
        assertThat(ProjectWeights.PRIORS.usage()).isEqualTo(new Beta(5, 5));
        assertThat(ProjectWeights.PRIORS.outcome()).isEqualTo(new Beta(5, 5));
        assertThat(ProjectWeights.PRIORS.weight(SignalKind.EXPLICIT)).isEqualTo(0.7);
        assertThat(ProjectWeights.PRIORS.weight(SignalKind.USAGE)).isEqualTo(0.5);
        assertThat(ProjectWeights.PRIORS.weight(SignalKind.OUTCOME)).isEqualTo(0.5);
    }

    @Test
    void a_retrieved_memory_rated_helpful_proves_usage_right() {
        ProjectWeights learned = ProjectWeights.PRIORS.learnFromFeedback(true, RETRIEVED);

        assertThat(learned.usage()).isEqualTo(new Beta(6, 5));
        assertThat(learned.weight(SignalKind.USAGE)).isGreaterThan(0.5);
        assertThat(learned.outcome()).isEqualTo(new Beta(5, 5));
    }

    @Test
    void a_retrieved_memory_rated_unhelpful_proves_usage_wrong() {
        ProjectWeights learned = ProjectWeights.PRIORS.learnFromFeedback(false, RETRIEVED);

        assertThat(learned.usage()).isEqualTo(new Beta(5, 6));
        assertThat(learned.weight(SignalKind.USAGE)).isLessThan(0.5);
    }

    @Test
    void one_retrieval_counts_as_much_as_many_it_is_one_prediction() {
        ProjectWeights once = ProjectWeights.PRIORS.learnFromFeedback(true, new SignalCounts(0, 0, 1, 0, 0));
        ProjectWeights often = ProjectWeights.PRIORS.learnFromFeedback(true, new SignalCounts(0, 0, 40, 0, 0));

        assertThat(once).isEqualTo(often);
    }

    @Test
    void outcomes_predict_by_majority_in_both_directions() {
        SignalCounts mostlySucceeded = new SignalCounts(0, 0, 0, 2, 1);
        SignalCounts mostlyFailed = new SignalCounts(0, 0, 0, 1, 2);

        assertThat(ProjectWeights.PRIORS.learnFromFeedback(true, mostlySucceeded).outcome()).isEqualTo(new Beta(6, 5));
        assertThat(ProjectWeights.PRIORS.learnFromFeedback(false, mostlySucceeded).outcome()).isEqualTo(new Beta(5, 6));
        assertThat(ProjectWeights.PRIORS.learnFromFeedback(false, mostlyFailed).outcome()).isEqualTo(new Beta(6, 5));
        assertThat(ProjectWeights.PRIORS.learnFromFeedback(true, mostlyFailed).outcome()).isEqualTo(new Beta(5, 6));
    }

    @Test
    void a_kind_that_predicted_nothing_learns_nothing() {
        SignalCounts tiedOutcomes = new SignalCounts(0, 0, 0, 2, 2);

        assertThat(ProjectWeights.PRIORS.learnFromFeedback(true, SignalCounts.ZERO)).isEqualTo(ProjectWeights.PRIORS);
        assertThat(ProjectWeights.PRIORS.learnFromFeedback(false, SignalCounts.ZERO)).isEqualTo(ProjectWeights.PRIORS);
        assertThat(ProjectWeights.PRIORS.learnFromFeedback(true, tiedOutcomes)).isEqualTo(ProjectWeights.PRIORS);
    }

    @Test
    void usage_and_outcome_are_scored_independently_in_one_rating() {
        SignalCounts evidence = new SignalCounts(0, 0, 2, 0, 1);

        ProjectWeights learned = ProjectWeights.PRIORS.learnFromFeedback(false, evidence);

        assertThat(learned.usage()).isEqualTo(new Beta(5, 6));
        assertThat(learned.outcome()).isEqualTo(new Beta(6, 5));
    }

    @Test
    void the_explicit_weight_never_learns_it_is_the_yardstick() {
        SignalCounts earlierRatingsDisagree = new SignalCounts(0, 5, 1, 3, 0);

        ProjectWeights learned = ProjectWeights.PRIORS.learnFromFeedback(true, earlierRatingsDisagree)
                .learnFromFeedback(false, new SignalCounts(9, 0, 1, 0, 4));

        assertThat(learned.explicit()).isEqualTo(ProjectWeights.PRIORS.explicit());
    }

    @Test
    void the_weights_after_many_ratings_do_not_depend_on_the_order_of_the_ratings() {
        Random random = new Random(4004);
        for (int round = 0; round < 200; round++) {
            List<Rating> ratings = new ArrayList<>();
            for (int i = 0, n = random.nextInt(30); i < n; i++) {
                ratings.add(new Rating(random.nextBoolean(), new SignalCounts(random.nextInt(3), random.nextInt(3),
                        random.nextInt(3), random.nextInt(4), random.nextInt(4))));
            }
            ProjectWeights inOrder = fold(ratings);
            Collections.shuffle(ratings, random);

            assertThat(fold(ratings)).as("round %d", round).isEqualTo(inOrder);
        }
    }

    @Test
    void a_project_where_retrieved_memories_are_mostly_unhelpful_learns_to_discount_usage() {
        ProjectWeights weights = ProjectWeights.PRIORS;
        for (int i = 0; i < 40; i++) {
            weights = weights.learnFromFeedback(i % 4 == 0, RETRIEVED);
        }

        // 10 helpful, 30 unhelpful: usage Beta(15, 35).
        assertThat(weights.usage()).isEqualTo(new Beta(15, 35));
        assertThat(weights.weight(SignalKind.USAGE)).isEqualTo(0.3);
    }

    @Test
    void missing_parts_are_refused() {
        assertThatThrownBy(() -> new ProjectWeights(null, new Beta(1, 1), new Beta(1, 1)))
                .isInstanceOf(NullPointerException.class);
        assertThatThrownBy(() -> ProjectWeights.PRIORS.learnFromFeedback(true, null))
                .isInstanceOf(NullPointerException.class);
    }

    private static ProjectWeights fold(List<Rating> ratings) {
        ProjectWeights weights = ProjectWeights.PRIORS;
        for (Rating rating : ratings) {
            weights = weights.learnFromFeedback(rating.helpful(), rating.before());
        }
        return weights;
    }

    private record Rating(boolean helpful, SignalCounts before) {
    }
}
