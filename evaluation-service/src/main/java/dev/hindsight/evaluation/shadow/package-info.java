/**
 * Shadow evaluation (design.md § Decision audit and shadow evaluation) as plain Java: Reality Alignment
 * Scores for the active and every shadow decision of a decision set, when to compute them (event-time window, terminal
 * and late signals), and active-versus-shadow decision comparisons. No framework here: the Kafka and database wiring
 * calls these classes.
 */
package dev.hindsight.evaluation.shadow;
