/**
 * memory-service: the ReasoningBank (design.md § ReasoningBank memory) on Hindsight's events: memories
 * distilled from completed sessions, semantic search, confidence learned from feedback, served over REST and MCP.
 */
package dev.hindsight.memory;
