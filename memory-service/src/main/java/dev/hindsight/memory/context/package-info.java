/**
 * Context injection (design.md § Context injection): the top memories for a task rendered as one Markdown block an
 * agent can be given at session start, within a token budget (under 500 tokens by default), with a token estimate that
 * errs on the high side so the budget holds for the tokenizers agents actually use.
 */
@FeatureApi({ContextInjection.class})
package dev.hindsight.memory.context;

import dev.hindsight.platform.FeatureApi;
