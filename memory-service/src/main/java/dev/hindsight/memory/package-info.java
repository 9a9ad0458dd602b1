/**
 * memory-service: seed 004's ReasoningBank on Hindsight's events: memories distilled from completed sessions,
 * semantic search, confidence learned from feedback, served over REST and MCP.
 */
package dev.hindsight.memory;
