/**
 * The distiller of design.md § Distillation as plain Java: turns a completed session (a trading model-day, a chat
 * conversation or a debugging trace, with its outcome, summary and judge verdict) into memory drafts, success
 * strategies and failure anti-patterns with what went wrong, and merges a draft into a near-duplicate memory.
 * Deterministic: the same session always yields the same drafts, so replaying the reasoning topic distils the same
 * memories.
 */
@FeatureApi({Distiller.class, ExistingMemory.class, MemoryDraft.class, MemoryMerge.class})
package dev.hindsight.memory.distill;

import dev.hindsight.platform.FeatureApi;
