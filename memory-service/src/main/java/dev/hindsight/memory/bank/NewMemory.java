package dev.hindsight.memory.bank;

import java.util.List;

/** An explicitly recorded memory (memory_record / POST .../memories), already validated. */
public record NewMemory(String title, String description, String content, String outcome, List<String> tags,
        List<String> sourceSessionIds) {
}
