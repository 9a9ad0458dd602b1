package dev.hindsight.memory.evidence;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

class TagsTest {

    @Test
    void languages_come_from_extensions_diff_headers_fences_and_build_tools() {
        Tags.CodeEvidence code = new Tags.CodeEvidence(
                List.of("web/src/App.tsx", "go test ./...", "cargo test -p parser"),
                List.of("diff --git a/lib/x.rb b/lib/x.rb\n--- a/lib/x.rb\n+++ b/lib/x.rb\n+puts 'hi.java'"),
                List.of("Here:\n```kotlin\nval x = 1\n```"));

        assertThat(Tags.languages(code)).containsExactly("go", "kotlin", "ruby", "rust");
    }

    @Test
    void at_most_four_languages_alphabetically() {
        Tags.CodeEvidence code = new Tags.CodeEvidence(List.of("a.py b.go c.rs d.java e.ts f.rb"), List.of(),
                List.of());

        assertThat(Tags.languages(code)).containsExactly("go", "java", "python", "ruby");
    }

    @Test
    void prose_about_a_language_and_words_that_look_like_extensions_are_not_evidence() {
        Tags.CodeEvidence code = new Tags.CodeEvidence(
                List.of("echo done", "v1.2 e.g. node.txt", "make all"),
                List.of("diff body mentions main.py only inside code\n+import app.py"),
                List.of("I rewrote it in Python and Java, see main.go"));

        assertThat(Tags.languages(code)).isEmpty();
    }

    @Test
    void problems_are_ranked_by_cue_hits_and_capped_at_three() {
        List<String> prose = List.of(
                "Login returns 401 after the JWT expired; the auth middleware rejects the token.",
                "The test suite fails: AssertionError in test_login.",
                "Probably a race condition between two threads refreshing the token.",
                "Queries to the database are slow.");

        // auth 4 (login, 401, jwt, auth); test-failure 2, concurrency 2, data 2: ties keep the declared order.
        assertThat(Tags.problems(prose)).containsExactly("auth", "test-failure", "concurrency");
    }

    @Test
    void ties_keep_the_declared_order_and_no_cue_means_no_problem_tag() {
        assertThat(Tags.problems(List.of("pytest is slow"))).containsExactly("test-failure", "performance");
        assertThat(Tags.problems(List.of("Rename the button label."))).isEmpty();
        assertThat(Tags.problems(List.of("the tokenizer and the lockfile"))).isEmpty();
    }

    @Test
    void kind_and_model_are_slugs() {
        List<String> tags = Tags.of("Debug", " Claude 3.5  Sonnet ", new Tags.CodeEvidence(List.of(), List.of(),
                List.of()), List.of());

        assertThat(tags).containsExactly("kind:debug", "model:claude-3.5-sonnet");
        assertThat(Tags.of("chat", null, new Tags.CodeEvidence(List.of(), List.of(), List.of()), List.of()))
                .containsExactly("kind:chat");
    }
}
