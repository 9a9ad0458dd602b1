/**
 * Context injection (seed 004 future enhancement 7): the top memories for a task rendered as one Markdown block an
 * agent can be given at session start, within a token budget (SC-002: under 500 tokens on average), with a token
 * estimate that errs on the high side so the budget holds for the tokenizers agents actually use.
 */
package dev.hindsight.memory.context;
