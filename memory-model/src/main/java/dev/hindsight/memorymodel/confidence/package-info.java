/**
 * The Bayesian confidence of design.md § Confidence as plain Java: a memory's confidence is the mean of a Beta
 * distribution whose prior comes from how the memory was made (explicit record or distillation) and whose evidence is
 * its explicit, usage and outcome signals, each weighted by how well that kind of signal has predicted explicit
 * feedback in the project.
 *
 * <p>Everything here is a pure function of counts, so a projection rebuilt from {@code hindsight.memory.v1} computes
 * the same confidence as the live one, and rolling old signals up into counts (hybrid storage) changes nothing.
 */
package dev.hindsight.memorymodel.confidence;
