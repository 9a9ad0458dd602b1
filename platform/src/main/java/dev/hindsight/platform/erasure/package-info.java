/**
 * Erasure (ADR 0028): the erasure log every replica of every service reads whole ({@link ErasureLog}, fed by
 * {@link ErasureFeed}), what it tells consumers to refuse, and how a service with a read model applies an erasure and
 * says so ({@link ErasureApplier}, {@link ErasureWorker}).
 */
package dev.hindsight.platform.erasure;
