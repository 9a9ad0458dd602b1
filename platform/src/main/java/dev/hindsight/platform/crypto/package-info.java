/**
 * Crypto-shredding (ADR 0027): what people wrote reaches the log only sealed under a data key that can be destroyed.
 * The tenants' key-encryption keys come from a {@link dev.hindsight.platform.crypto.Kms}
 * ({@link dev.hindsight.platform.crypto.LocalKms} derives them from configured master keys); data keys per subject,
 * session and memory are made, wrapped and unwrapped by {@link dev.hindsight.platform.crypto.DataKeys}; an event's
 * payload is sealed and opened by {@link dev.hindsight.platform.crypto.Sealing}, bound to its tenant, Kafka key and
 * event id. Every primitive is Google Tink's: nothing here invents cryptography.
 */
package dev.hindsight.platform.crypto;
