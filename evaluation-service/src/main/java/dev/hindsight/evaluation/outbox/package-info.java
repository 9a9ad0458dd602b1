/**
 * The outbox: judgements written with the state that produced them, published after the commit (ADR 0006).
 */
@FeatureApi({Outbox.class, OutboxRelay.class})
package dev.hindsight.evaluation.outbox;

import dev.hindsight.platform.FeatureApi;
