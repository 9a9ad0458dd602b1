/**
 * The bank itself: memories recorded, found and judged, their events on hindsight.memory.v1 and the database as
 * their projection.
 */
@FeatureApi({
    Caller.class,
    Found.class,
    MemoryBank.class,
    MemoryEvents.class,
    MemoryLog.class,
    MemoryRow.class,
    MemoryStore.class,
    NewMemory.class,
    VectorKeeper.class})
package dev.hindsight.memory.bank;

import dev.hindsight.platform.FeatureApi;
