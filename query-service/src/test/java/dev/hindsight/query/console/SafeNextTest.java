package dev.hindsight.query.console;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Given where a sign-in should lead, then only a page of this console is followed; anything else leads home. */
class SafeNextTest {

    @ParameterizedTest
    @ValueSource(strings = {"/ui/sessions?kind=chat", "/ui/sessions/a%20b", "/ui/traces/t-1#e3", "/ui/ops"})
    void aConsolePageIsFollowed(String next) {
        assertThat(SignInResource.safeNext(next)).isEqualTo(next);
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "/", "//evil.example/", "https://evil.example/ui/", "/ui", "/uix/sessions",
        "/ui/sign-in?next=/ui/ops", "/ui/../v1/sessions", "/ui/a b", "/ui/\\evil", "/ui/\nSet-Cookie: x",
        "/ui/%zz", "javascript:alert(1)", "/v1/sessions"})
    void anythingElseLeadsToTheSessions(String next) {
        assertThat(SignInResource.safeNext(next)).isEqualTo("/ui/sessions");
    }
}
