/**
 * The vector store: pgvector in the service's database.
 */
@FeatureApi({VectorStore.class})
package dev.hindsight.memory.store;

import dev.hindsight.platform.FeatureApi;
