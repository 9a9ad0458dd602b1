package dev.hindsight.memorymodel.search;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.hindsight.memorymodel.confidence.ConfidenceModel;
import dev.hindsight.memorymodel.confidence.MemoryOrigin;
import dev.hindsight.memorymodel.confidence.ProjectWeights;
import dev.hindsight.memorymodel.confidence.SignalCounts;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;

class SearchRuleTest {

    private record Memory(String name, double confidence, MemoryOrigin origin, String outcome) {
        Memory(String name, double confidence) {
            this(name, confidence, MemoryOrigin.EXPLICIT, "success");
        }

        Memory(String name, double confidence, MemoryOrigin origin) {
            this(name, confidence, origin, "success");
        }
    }

    private static final SearchRule.Facts<Memory> FACTS =
            SearchRule.Facts.of(Memory::confidence, Memory::origin, Memory::outcome);

    private record Hit(String name, double similarity, boolean probation) {
        Hit(String name, double similarity) {
            this(name, similarity, false);
        }
    }

    private static final SearchRule.Policy NO_PROBATION = byRelevance(0.7, 0, 0.9);
    private static final SearchRule.Policy ONE_ON_PROBATION = byRelevance(0.7, 1, 0.9);

    private static final UUID A = UUID.randomUUID();
    private static final UUID B = UUID.randomUUID();
    private static final UUID C = UUID.randomUUID();
    private static final UUID D = UUID.randomUUID();

    /** A policy that orders every neighbour by relevance alone. */
    private static SearchRule.Policy byRelevance(double minConfidence, int probationSlots, double duplicateSimilarity) {
        return new SearchRule.Policy(minConfidence, probationSlots, duplicateSimilarity, 0, SearchRule.MAX_CANDIDATES);
    }

    @Test
    void theDefaultsAreSeed004s() {
        assertThat(Double.parseDouble(SearchRule.DEFAULT_MIN_CONFIDENCE)).isEqualTo(ConfidenceModel.MIN_CONFIDENCE);
        assertThat(Integer.parseInt(SearchRule.DEFAULT_CANDIDATES_PER_RESULT)).isEqualTo(4);
        assertThat(Integer.parseInt(SearchRule.DEFAULT_PROBATION_SLOTS)).isEqualTo(1);
    }

    @Test
    void candidatesGrowWithTheLimitUpToTheCap() {
        assertThat(SearchRule.candidates(10, 4, 0)).isEqualTo(40);
        assertThat(SearchRule.candidates(10, 0, 0)).as("at least one candidate per result").isEqualTo(10);
        assertThat(SearchRule.candidates(300, 4, 0)).isEqualTo(SearchRule.MAX_CANDIDATES);
        assertThat(SearchRule.candidates(250, 4, 0)).isEqualTo(1000);
        assertThat(SearchRule.candidates(249, 4, 0)).isEqualTo(996);
    }

    @Test
    void rankKeepsConfidentExistingMemoriesMostSimilarFirst() {
        // Neighbours arrive in relaxed order (pgvector's iterative scan); C's memory is gone; B is below the minimum.
        List<Neighbour> neighbours = List.of(new Neighbour(A, 0.61), new Neighbour(B, 0.95), new Neighbour(C, 0.9),
                new Neighbour(D, 0.8));
        Map<UUID, Memory> memories = Map.of(A, new Memory("a", 0.8), B, new Memory("b", 0.69),
                D, new Memory("d", 0.7));

        List<Hit> hits = SearchRule.rank(neighbours, null, memories, FACTS, ONE_ON_PROBATION, 10,
                (m, similarity, probation) -> new Hit(m.name(), similarity, probation));

        assertThat(hits).containsExactly(new Hit("d", 0.8), new Hit("a", 0.61));
    }

    @Test
    void anAnswerIsOrderedByRelevanceAndReportsEachMemorysSimilarity() {
        float[] query = {1, 0, 0};
        // Found by a relevance query: the store's similarity is each one's relevance.
        Neighbour close = new Neighbour(A, 0.2, new float[] {0.8f, 0.6f, 0}).foundFor(query);
        Neighbour distinct = new Neighbour(B, 0.5, new float[] {0.6f, 0, 0.8f}).foundFor(query);
        assertThat(close.relevance()).isEqualTo(0.2);
        assertThat(close.similarity()).isCloseTo(0.8, within(1e-6));
        assertThat(distinct.similarity()).isCloseTo(0.6, within(1e-6));

        List<Hit> hits = SearchRule.rank(List.of(close, distinct), null, Map.of(A, new Memory("a", 0.8),
                B, new Memory("b", 0.8)), FACTS, NO_PROBATION, 10, (m, s, p) -> new Hit(m.name(), s, p));

        assertThat(hits).extracting(Hit::name).as("more relevant first, though less similar").containsExactly("b", "a");
        assertThat(hits.get(0).similarity()).isCloseTo(0.6, within(1e-6));
        assertThat(new Neighbour(C, 0.7).relevance()).as("a plain neighbour's relevance is its similarity")
                .isEqualTo(0.7);
        assertThat(new Neighbour(C, 0.7).foundFor(query).similarity()).as("no vector: nothing to measure again")
                .isEqualTo(0.7);
    }

    @Test
    void theRelevanceQueryTakesTheProjectsCentreAwayByHowManyMemoriesItAverages() {
        float[] query = {3, 4};
        float[] mean = {0.5f, 0.5f};
        assertThat(SearchRule.relevanceQuery(query, null)).as("no centre").isSameAs(query);
        assertThat(SearchRule.relevanceQuery(query, new SearchRule.Centre(mean, 0))).isSameAs(query);
        assertThat(SearchRule.relevanceQuery(query, new SearchRule.Centre(new float[] {1, 2, 3}, 9)))
                .as("a centre of another dimension (another model) is ignored").isSameAs(query);

        // 50 memories weigh half: (0.6, 0.8) - 0.5 * (0.5, 0.5).
        assertThat(SearchRule.relevanceQuery(query, new SearchRule.Centre(mean, SearchRule.CENTRE_PRIOR)))
                .containsExactly(new float[] {0.35f, 0.55f}, within(1e-6f));
        // 4,950 memories weigh 0.99.
        assertThat(SearchRule.relevanceQuery(query, new SearchRule.Centre(mean, 4950)))
                .containsExactly(new float[] {0.6f - 0.495f, 0.8f - 0.495f}, within(1e-6f));
        assertThat(SearchRule.relevanceQuery(new float[] {0, 0}, new SearchRule.Centre(mean, 10)))
                .as("a zero query has no direction to keep").containsExactly(0f, 0f);
    }

    @Test
    void aSmallProjectIsSearchedExactlyAndALargerOneAgainExactlyWhenTheIndexCameBackShort() {
        SearchRule.Centre none = null;
        assertThat(SearchRule.searchedExactly(none)).as("no vectors yet").isFalse();
        assertThat(SearchRule.searchedExactly(centre(1))).isTrue();
        assertThat(SearchRule.searchedExactly(centre(10_000))).isTrue();
        assertThat(SearchRule.searchedExactly(centre(10_001))).isFalse();

        assertThat(SearchRule.cameBackShort(40, 40, centre(100_000))).isFalse();
        assertThat(SearchRule.cameBackShort(39, 40, centre(100_000))).isTrue();
        assertThat(SearchRule.cameBackShort(0, 40, centre(5_000))).isTrue();
        assertThat(SearchRule.cameBackShort(12, 40, centre(12))).as("all it has").isFalse();
        assertThat(SearchRule.cameBackShort(11, 40, centre(12))).isTrue();
        assertThat(SearchRule.cameBackShort(0, 40, none)).as("nothing to find").isFalse();
    }

    private static SearchRule.Centre centre(long count) {
        return new SearchRule.Centre(new float[] {1}, count);
    }

    @Test
    void whatEveryMemorySharesNoLongerDecidesTheOrder() {
        // Five memories about the same thing (the common direction x), the query about what only B (index 1) says, z.
        float[][] memories = {unit(0.99f, 0.14f, 0), unit(0.8f, 0, 0.6f), unit(0.99f, -0.14f, 0),
            unit(0.99f, 0, -0.14f), unit(0.98f, 0.1f, -0.1f)};
        float[] query = unit(1, 0.1f, 0.25f);
        float[] mean = new float[3];
        for (float[] m : memories) {
            for (int i = 0; i < 3; i++) {
                mean[i] += m[i] / memories.length;
            }
        }
        assertThat(Neighbour.cosine(memories[0], query)).as("plain cosine prefers A")
                .isGreaterThan(Neighbour.cosine(memories[1], query));

        float[] relevance = SearchRule.relevanceQuery(query, new SearchRule.Centre(mean, 10_000));

        assertThat(Neighbour.cosine(memories[1], relevance)).as("B says what the query adds")
                .isGreaterThan(Neighbour.cosine(memories[0], relevance) + 0.4);
    }

    private static float[] unit(float... v) {
        double n = 0;
        for (float x : v) {
            n += x * x;
        }
        float[] out = new float[v.length];
        for (int i = 0; i < v.length; i++) {
            out[i] = (float) (v[i] / Math.sqrt(n));
        }
        return out;
    }

    @Test
    void candidatesAreAtLeastTheMinimumAndHubnessReadsItsPoolBeyondThem() {
        assertThat(SearchRule.candidates(10, 4, 40)).isEqualTo(40);
        assertThat(SearchRule.candidates(5, 4, 40)).as("whatever the limit").isEqualTo(40);
        assertThat(SearchRule.candidates(50, 4, 40)).isEqualTo(200);
        assertThat(SearchRule.candidates(1, 4, 2_000)).as("the cap holds").isEqualTo(SearchRule.MAX_CANDIDATES);
        assertThat(SearchRule.candidates(3, 4, 0)).isEqualTo(12);

        assertThat(SearchRule.neighboursRead(40, 100, 0.5)).isEqualTo(100);
        assertThat(SearchRule.neighboursRead(40, 100, 0)).as("no hubness, no pool beyond the candidates").isEqualTo(40);
        assertThat(SearchRule.neighboursRead(200, 100, 0.5)).isEqualTo(200);
        assertThat(SearchRule.neighboursRead(40, 5_000, 0.5)).isEqualTo(SearchRule.MAX_CANDIDATES);
    }

    @Test
    void aMemoryBeyondTheCandidatesMeasuresHubnessButNeverAnswers() {
        // Three relevant memories about one thing, and one far less relevant, like none of them: alone in the pool, its
        // hubness is low for want of company, and relevance less hubness would put it first.
        UUID far = UUID.randomUUID();
        List<Neighbour> neighbours = List.of(new Neighbour(A, 0.5, new float[] {1, 0.1f, 0}),
                new Neighbour(B, 0.48, new float[] {1, 0, 0.1f}), new Neighbour(C, 0.46, new float[] {1, 0, 0}),
                new Neighbour(far, 0.15, new float[] {-0.2f, 1, -1}));
        Map<UUID, Memory> memories = Map.of(A, new Memory("a", 0.8), B, new Memory("b", 0.8), C, new Memory("c", 0.8),
                far, new Memory("far", 0.8));

        assertThat(SearchRule.rank(neighbours, null, memories, FACTS, new SearchRule.Policy(0.7, 0, 1.01, 0.5, 4), 4,
                (m, s, p) -> m.name())).as("every neighbour a candidate").startsWith("far");
        assertThat(SearchRule.rank(neighbours, null, memories, FACTS, new SearchRule.Policy(0.7, 0, 1.01, 0.5, 3), 4,
                (m, s, p) -> m.name())).as("the three most relevant are the candidates")
                .containsExactlyInAnyOrder("a", "b", "c");
        assertThat(SearchRule.rank(neighbours, null, memories, FACTS, new SearchRule.Policy(0.7, 0, 1.01, 0, 2), 4,
                (m, s, p) -> m.name())).as("by relevance alone too").containsExactly("a", "b");
        assertThat(SearchRule.candidateIds(neighbours, 3)).as("only the candidates are loaded")
                .containsExactly(A, B, C);
        assertThat(SearchRule.candidateIds(List.of(neighbours.get(3), neighbours.get(2)), 5)).containsExactly(C, far);
    }

    @Test
    void hubnessIsTheMeanCosineToTheMostSimilarFellowCandidates() {
        List<Neighbour> three = List.of(new Neighbour(A, 0.9, new float[] {1, 0}),
                new Neighbour(B, 0.8, new float[] {2, 0}), new Neighbour(C, 0.7, new float[] {0, 3}));
        assertThat(SearchRule.hubness(three, null)).as("A and B: (1 + 0) / 2; C: (0 + 0) / 2")
                .containsExactly(new double[] {0.5, 0.5, 0}, within(1e-9));

        // Eleven alike and one apart: only the ten most similar count, so each of the eleven has hubness 1.
        List<Neighbour> twelve = new java.util.ArrayList<>();
        for (int i = 0; i < 11; i++) {
            twelve.add(new Neighbour(UUID.randomUUID(), 0.5, new float[] {1, 0, 0}));
        }
        twelve.add(new Neighbour(D, 0.5, new float[] {0, 1, 0}));
        double[] hubness = SearchRule.hubness(twelve, null);
        assertThat(hubness[0]).isCloseTo(1.0, within(1e-9));
        assertThat(hubness[10]).isCloseTo(1.0, within(1e-9));
        assertThat(hubness[11]).isCloseTo(0.0, within(1e-9));

        List<Neighbour> oneWithout = List.of(new Neighbour(A, 0.9, new float[] {1, 0}), new Neighbour(B, 0.8),
                new Neighbour(C, 0.7, new float[] {1, 0}), new Neighbour(D, 0.6, new float[] {1, 0, 0}));
        assertThat(SearchRule.hubness(oneWithout, null))
                .as("no vector (or another model's): hubness 0, and no company for the others")
                .containsExactly(new double[] {1, 0, 1, 0}, within(1e-9));
        assertThat(SearchRule.hubness(List.of(new Neighbour(A, 0.9, new float[] {1, 0})), null)).containsExactly(0.0);
        assertThat(SearchRule.hubness(List.of(), null)).isEmpty();
    }

    @Test
    void hubnessIsMeasuredBeyondWhatTheWholeProjectShares() {
        // Alike only in the direction every memory of the project shares (x): beyond it, they point apart.
        List<Neighbour> pair = List.of(new Neighbour(A, 0.9, unit(1, 0.3f, 0)),
                new Neighbour(B, 0.8, unit(1, -0.3f, 0)));
        SearchRule.Centre centre = new SearchRule.Centre(new float[] {0.95f, 0, 0}, 10_000);

        assertThat(SearchRule.hubness(pair, null)[0]).as("plainly alike").isGreaterThan(0.8);
        assertThat(SearchRule.hubness(pair, centre)[0]).as("beyond the centre, opposed").isLessThan(-0.5);
    }

    @Test
    void aGenericMemoryGivesWayToASpecificOneWhenHubnessCounts() {
        // The generic memory is the most relevant, but it lies among ten others that say much the same; the specific
        // one is a little less relevant and like none of them.
        UUID generic = UUID.randomUUID();
        UUID specific = UUID.randomUUID();
        List<Neighbour> neighbours = new java.util.ArrayList<>();
        Map<UUID, Memory> memories = new java.util.HashMap<>();
        neighbours.add(new Neighbour(generic, 0.6, unit(1, 0.05f, 0, 0)));
        memories.put(generic, new Memory("generic", 0.8));
        neighbours.add(new Neighbour(specific, 0.58, unit(0, 0, 1, 0)));
        memories.put(specific, new Memory("specific", 0.8));
        for (int i = 0; i < 10; i++) {
            UUID id = UUID.randomUUID();
            neighbours.add(new Neighbour(id, 0.3, unit(1, 0, 0, 0.02f * i)));
            memories.put(id, new Memory("like-generic-" + i, 0.8));
        }

        assertThat(SearchRule.rank(neighbours, null, memories, FACTS, new SearchRule.Policy(0.7, 0, 1.01, 0.5, 12), 2,
                (m, s, p) -> m.name())).containsExactly("specific", "generic");
        assertThat(SearchRule.rank(neighbours, null, memories, FACTS, new SearchRule.Policy(0.7, 0, 1.01, 0, 12), 2,
                (m, s, p) -> m.name())).as("by relevance alone").containsExactly("generic", "specific");
        assertThat(SearchRule.rank(neighbours, null, memories, FACTS, new SearchRule.Policy(0.7, 0, 1.01, 0.5, 12), 12,
                (m, s, p) -> s).subList(0, 2)).as("each result still reports its similarity to the query")
                .containsExactly(0.58, 0.6);
    }

    @Test
    void rankStopsAtTheLimitAfterFiltering() {
        List<Neighbour> neighbours = List.of(new Neighbour(A, 0.9), new Neighbour(B, 0.8), new Neighbour(C, 0.7));
        Map<UUID, Memory> memories = Map.of(A, new Memory("a", 0.1), B, new Memory("b", 0.9), C, new Memory("c", 0.9));

        assertThat(SearchRule.rank(neighbours, null, memories, FACTS, NO_PROBATION, 1,
                (m, s, p) -> m.name())).containsExactly("b");
        assertThat(SearchRule.rank(List.of(), null, memories, FACTS, NO_PROBATION, 5,
                (m, s, p) -> m.name())).isEmpty();
    }

    @Test
    void aDistilledMemoryAtItsPriorIsOnProbationAndNothingElseBelowTheMinimumIs() {
        ProjectWeights weights = ProjectWeights.PRIORS;
        double fresh = ConfidenceModel.confidence(MemoryOrigin.DISTILLED, SignalCounts.ZERO, weights);
        double usedOnce = ConfidenceModel.confidence(MemoryOrigin.DISTILLED, new SignalCounts(0, 0, 1, 0, 0), weights);
        double usedTwice = ConfidenceModel.confidence(MemoryOrigin.DISTILLED, new SignalCounts(0, 0, 2, 0, 0), weights);
        double usedThenRejected = ConfidenceModel.confidence(MemoryOrigin.DISTILLED, new SignalCounts(0, 1, 1, 0, 0),
                weights);
        assertThat(fresh).isEqualTo(0.6);
        assertThat(SearchRule.onProbation(MemoryOrigin.DISTILLED, fresh, 0.7)).isTrue();
        assertThat(usedOnce).isCloseTo(2.0 / 3.0, within(1e-12));
        assertThat(SearchRule.onProbation(MemoryOrigin.DISTILLED, usedOnce, 0.7)).as("after one usage").isTrue();
        assertThat(usedTwice).as("found on its own after two").isCloseTo(2.5 / 3.5, within(1e-12))
                .isGreaterThanOrEqualTo(0.7);
        assertThat(usedThenRejected).isCloseTo(2.0 / 3.7, within(1e-12));
        assertThat(SearchRule.onProbation(MemoryOrigin.DISTILLED, usedThenRejected, 0.7)).as("rated down").isFalse();
        assertThat(SearchRule.onProbation(MemoryOrigin.DISTILLED, Math.nextDown(0.6), 0.7)).as("below its prior")
                .isFalse();
        assertThat(SearchRule.onProbation(MemoryOrigin.DISTILLED, 0.7, 0.7)).as("confident: no probation").isFalse();
        assertThat(SearchRule.onProbation(MemoryOrigin.EXPLICIT, 0.65, 0.7)).as("an explicit one rated down")
                .isFalse();
        assertThat(SearchRule.onProbation(MemoryOrigin.DISTILLED, 0.6, 0.5)).as("found anyway").isFalse();
    }

    @Test
    void theMostSimilarMemoryOnProbationTakesItsPlaceAndDisplacesTheLeastSimilarConfidentOne() {
        UUID e = UUID.randomUUID();
        List<Neighbour> neighbours = List.of(new Neighbour(A, 0.9), new Neighbour(B, 0.85), new Neighbour(C, 0.8),
                new Neighbour(D, 0.75), new Neighbour(e, 0.7));
        Map<UUID, Memory> memories = Map.of(A, new Memory("a", 0.8), B, new Memory("b", 0.6, MemoryOrigin.DISTILLED),
                C, new Memory("c", 0.65, MemoryOrigin.DISTILLED), D, new Memory("d", 0.75), e, new Memory("e", 0.9));

        assertThat(SearchRule.rank(neighbours, null, memories, FACTS, ONE_ON_PROBATION, 3,
                (m, s, p) -> new Hit(m.name(), s, p)))
                .as("one slot: b, the most similar on probation, in its place; c waits; e is displaced")
                .containsExactly(new Hit("a", 0.9), new Hit("b", 0.85, true), new Hit("d", 0.75));
        assertThat(SearchRule.rank(neighbours, null, memories, FACTS,
                byRelevance(0.7, 2, 0.9), 5, (m, s, p) -> new Hit(m.name(), s, p)))
                .containsExactly(new Hit("a", 0.9), new Hit("b", 0.85, true), new Hit("c", 0.8, true),
                        new Hit("d", 0.75), new Hit("e", 0.7));
        assertThat(SearchRule.rank(neighbours, null, memories, FACTS, NO_PROBATION, 3,
                (m, s, p) -> new Hit(m.name(), s, p)))
                .containsExactly(new Hit("a", 0.9), new Hit("d", 0.75), new Hit("e", 0.7));
    }

    @Test
    void aMemoryOnProbationNeverDisplacesAMoreSimilarConfidentOneNorAnswersAlone() {
        List<Neighbour> neighbours = List.of(new Neighbour(A, 0.9), new Neighbour(B, 0.8), new Neighbour(C, 0.7));
        Map<UUID, Memory> memories = Map.of(A, new Memory("a", 0.8), B, new Memory("b", 0.8),
                C, new Memory("c", 0.6, MemoryOrigin.DISTILLED));

        assertThat(SearchRule.rank(neighbours, null, memories, FACTS, ONE_ON_PROBATION, 2,
                (m, s, p) -> m.name())).as("c is less similar than both").containsExactly("a", "b");
        assertThat(SearchRule.rank(neighbours, null, memories, FACTS, ONE_ON_PROBATION, 3,
                (m, s, p) -> m.name())).as("room for it").containsExactly("a", "b", "c");

        Map<UUID, Memory> distilledFirst = Map.of(A, new Memory("a", 0.6, MemoryOrigin.DISTILLED),
                B, new Memory("b", 0.8), C, new Memory("c", 0.8));
        assertThat(SearchRule.rank(neighbours, null, distilledFirst, FACTS, ONE_ON_PROBATION,
                1, (m, s, p) -> m.name())).as("a one-result answer is always a confident memory")
                .containsExactly("b");
        assertThat(SearchRule.rank(neighbours, null, distilledFirst, FACTS, ONE_ON_PROBATION,
                2, (m, s, p) -> m.name())).containsExactly("a", "b");
        assertThat(SearchRule.rank(List.of(new Neighbour(A, 0.9)), null, distilledFirst, FACTS, ONE_ON_PROBATION, 5, (m, s, p) -> m.name()))
                .as("alone among the neighbours, it is still shown: the slot is not tied to other results")
                .containsExactly("a");
    }

    @Test
    void aNearDuplicateOfAResultWithTheSameOutcomeTakesNoPlace() {
        UUID e = UUID.randomUUID();
        // a and b say the same thing (cosine 0.995); c is b's opposite lesson, as alike but a failure; d differs.
        List<Neighbour> neighbours = List.of(new Neighbour(A, 0.9, new float[] {1, 0.1f, 0}),
                new Neighbour(B, 0.88, new float[] {1, 0, 0}), new Neighbour(C, 0.87, new float[] {1, 0, 0.01f}),
                new Neighbour(D, 0.6, new float[] {0, 1, 0}), new Neighbour(e, 0.5, new float[] {0, 0, 1}));
        Map<UUID, Memory> memories = Map.of(A, new Memory("a", 0.8), B, new Memory("b", 0.9),
                C, new Memory("c", 0.8, MemoryOrigin.EXPLICIT, "failure"), D, new Memory("d", 0.8),
                e, new Memory("e", 0.8));

        assertThat(SearchRule.rank(neighbours, null, memories, FACTS, NO_PROBATION, 3, (m, s, p) -> m.name()))
                .as("b repeats a and is skipped; c's outcome differs; d fills the place").containsExactly("a", "c", "d");
        assertThat(SearchRule.rank(neighbours, null, memories, FACTS, byRelevance(0.7, 0, 1.01), 3,
                (m, s, p) -> m.name())).as("collapsing off").containsExactly("a", "b", "c");
        assertThat(SearchRule.rank(neighbours, null, memories, FACTS, byRelevance(0.7, 0, 0.996), 3,
                (m, s, p) -> m.name())).as("just below the threshold").containsExactly("a", "b", "c");
        assertThat(SearchRule.rank(neighbours, null, Map.of(A, new Memory("a", 0.5), B, new Memory("b", 0.9),
                D, new Memory("d", 0.8)), FACTS, NO_PROBATION, 3, (m, s, p) -> m.name()))
                .as("a memory that is not shown hides nothing").containsExactly("b", "d");
        List<Neighbour> identical = List.of(new Neighbour(A, 0.9, new float[] {1, 0, 0}),
                new Neighbour(B, 0.88, new float[] {1, 0, 0}));
        assertThat(SearchRule.rank(identical, null, memories, FACTS, byRelevance(0.7, 0, 1.0), 3,
                (m, s, p) -> m.name())).as("a cosine equal to the threshold repeats").containsExactly("a");
        List<Neighbour> withoutVectors = List.of(new Neighbour(A, 0.9), new Neighbour(B, 0.88));
        assertThat(SearchRule.rank(withoutVectors, null, memories, FACTS, NO_PROBATION, 3, (m, s, p) -> m.name()))
                .containsExactly("a", "b");
    }

    @Test
    void cosineComparesDirectionsWhateverTheLength() {
        Neighbour x = new Neighbour(A, 0, new float[] {3, 4});
        assertThat(x.cosine(new Neighbour(B, 0, new float[] {6, 8}))).isCloseTo(1.0, within(1e-9));
        assertThat(x.cosine(new Neighbour(B, 0, new float[] {-4, 3}))).isCloseTo(0.0, within(1e-9));
        assertThat(x.cosine(new Neighbour(B, 0, new float[] {0, 0}))).isZero();
        assertThat(x.cosine(new Neighbour(B, 0))).isZero();
        assertThat(x.cosine(new Neighbour(B, 0, new float[] {1, 2, 3}))).isZero();
    }

    @Test
    void aMemoryIsEmbeddedFromItsTitleDescriptionAndContent() {
        assertThat(SearchRule.embeddingText("Retry", "with backoff", "Wait 1 s, then 2 s."))
                .isEqualTo("Retry. with backoff. Wait 1 s, then 2 s.");
        assertThat(SearchRule.embeddingText("Retry", " ", "Wait.")).isEqualTo("Retry. Wait.");
        assertThat(SearchRule.embeddingText("Retry", null, "Wait.")).isEqualTo("Retry. Wait.");
    }

    @Test
    void aVectorReadAsRealArrayBecomesFloats() {
        assertThat(SearchRule.vectorOf(new Float[] {0.5f, -1.25f})).containsExactly(0.5f, -1.25f);
        assertThat(SearchRule.vectorOf(null)).isNull();
    }

    @Test
    void vectorsTravelInPgvectorsTextForm() {
        assertThat(SearchRule.vectorLiteral(new float[] {0.5f, -1.25f, 3e-8f})).isEqualTo("[0.5,-1.25,3.0E-8]");
        assertThat(SearchRule.vectorLiteral(new float[0])).isEqualTo("[]");
    }
}
