/**
 * What a completed session says, as the distiller reads it: its turns and activities, the actions that failed or
 * verified, its sentences and tags.
 */
@FeatureApi({CompletedSession.class, SessionEvidence.class, Tags.class, Texts.class})
package dev.hindsight.memory.evidence;

import dev.hindsight.platform.FeatureApi;
