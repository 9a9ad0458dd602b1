/**
 * Secret scrubbing for memory content (design.md § Memories: everything returned, and every distilled draft, is
 * scrubbed of secrets). Applied when a memory is distilled and again when it is served, so a secret that slipped into a
 * session never leaves the memory service.
 */
package dev.hindsight.memorymodel.scrub;
