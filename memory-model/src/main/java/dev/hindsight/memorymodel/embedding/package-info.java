/**
 * Sentence embeddings for memories and for the queries that search them. Every service that searches memories
 * (memory-service's API and MCP tools, query-service's console) embeds with the same model through these classes, so
 * a query means the same everywhere, and vectors carry the model's id so that no two models' vectors are compared.
 */
package dev.hindsight.memorymodel.embedding;
