package dev.hindsight.ingest;

import dev.hindsight.testing.ServiceArchitectureTest;

/** ingest-service keeps the architecture's rules (dev.hindsight.testing.Architecture). */
class ArchitectureTest extends ServiceArchitectureTest {

    ArchitectureTest() {
        super("ingest-service", "dev.hindsight.ingest");
    }
}
