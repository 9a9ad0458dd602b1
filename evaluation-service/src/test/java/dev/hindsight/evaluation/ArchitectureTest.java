package dev.hindsight.evaluation;

import dev.hindsight.testing.ServiceArchitectureTest;

/** evaluation-service keeps the architecture's rules (dev.hindsight.testing.Architecture). */
class ArchitectureTest extends ServiceArchitectureTest {

    ArchitectureTest() {
        super("evaluation-service", "dev.hindsight.evaluation");
    }
}
