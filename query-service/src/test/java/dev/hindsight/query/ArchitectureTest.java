package dev.hindsight.query;

import dev.hindsight.testing.ServiceArchitectureTest;

/** query-service keeps the architecture's rules (dev.hindsight.testing.Architecture). */
class ArchitectureTest extends ServiceArchitectureTest {

    ArchitectureTest() {
        super("query-service", "dev.hindsight.query");
    }
}
