/**
 * Erasure in memory-service (ADR 0028): a session, a person or a tenant erased from the bank, from what the distiller
 * kept of sessions, and from the memory topic by destroying the keys of what held it.
 */
@FeatureApi({})
package dev.hindsight.memory.erasure;

import dev.hindsight.platform.FeatureApi;
