/**
 * Redaction of secrets from what people and agents write, before it reaches the log (docs/design.md § Redaction):
 * the rules that find a secret in free text ({@link dev.hindsight.platform.redact.SecretScrubber}), the same applied
 * to the values of a JSON document ({@link dev.hindsight.platform.redact.JsonRedaction}), every field an event's Avro
 * schema marks as text redacted in place ({@link dev.hindsight.platform.redact.Redaction}), and each tenant's policy
 * ({@link dev.hindsight.platform.redact.Redactor}).
 */
package dev.hindsight.platform.redact;
