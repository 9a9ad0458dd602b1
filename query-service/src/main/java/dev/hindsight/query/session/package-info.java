/**
 * Sessions and their messages, thinking steps, positions, activities, summaries and QA verdicts: their projections,
 * the sessions API, the message-conflict check and the console pages.
 */
@FeatureApi({AssembledSessions.class, SessionView.class})
package dev.hindsight.query.session;

import dev.hindsight.platform.FeatureApi;
