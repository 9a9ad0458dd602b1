/**
 * Secret scrubbing for memory content (seed 004: "Scrubs content for secrets before returning";
 * memory content is scrubbed before it is returned). Applied when a memory is distilled and again when it is served,
 * so a secret that slipped into a session never leaves the memory service.
 */
package dev.hindsight.memory.scrub;
