/**
 * Shadow evaluation (design.md § Decision audit and shadow evaluation) as plain Java: Reality Alignment
 * Scores for the active and every shadow decision of a decision set, when to compute them (event-time window, terminal
 * and late signals), and active-versus-shadow decision comparisons. No framework here: the Kafka and database wiring
 * ({@code dev.hindsight.evaluation.audit}) calls these classes.
 */
@FeatureApi({
    AlignmentWeights.class,
    Decision.class,
    DecisionComparator.class,
    DecisionComparison.class,
    DecisionSet.class,
    EvaluationWindow.class,
    MiniLmSimilarity.class,
    ReasoningSimilarity.class,
    Severity.class,
    ShadowEvaluation.class,
    ShadowScoreCalculator.class,
    Signal.class,
    SignalType.class,
    Trigger.class,
    WindowState.class})
package dev.hindsight.evaluation.shadow;

import dev.hindsight.platform.FeatureApi;
