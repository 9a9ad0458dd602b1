/**
 * Reading {@code hindsight.memory.v1}'s events into the statements of the projections that apply them
 * (memory-service's database and query-service's read model), so that both read an event alike.
 */
package dev.hindsight.memorymodel.events;
