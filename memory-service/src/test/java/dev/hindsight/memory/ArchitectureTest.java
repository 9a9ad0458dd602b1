package dev.hindsight.memory;

import dev.hindsight.testing.ServiceArchitectureTest;

/** memory-service keeps the architecture's rules (dev.hindsight.testing.Architecture). */
class ArchitectureTest extends ServiceArchitectureTest {

    ArchitectureTest() {
        super("memory-service", "dev.hindsight.memory");
    }
}
