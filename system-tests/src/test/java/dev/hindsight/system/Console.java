package dev.hindsight.system;

import static org.assertj.core.api.Assertions.assertThat;

import dev.hindsight.testing.TestTenants;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;

/** Signing in to the console without a browser, for tests that read its pages as HTML. */
final class Console {

    private Console() {
    }

    /** The {@code Cookie} header value of a console session signed in with {@code persona}'s key. */
    static String signIn(HttpClient http, String query, TestTenants persona) throws java.io.IOException,
            InterruptedException {
        HttpResponse<String> answer = http.send(HttpRequest.newBuilder(URI.create(query + "/ui/sign-in"))
                .header("Content-Type", "application/x-www-form-urlencoded")
                .POST(HttpRequest.BodyPublishers.ofString("api_key=" + URLEncoder.encode(persona.key(),
                        StandardCharsets.UTF_8))).build(), HttpResponse.BodyHandlers.ofString());
        assertThat(answer.statusCode()).as(answer.body()).isEqualTo(303);
        String cookie = answer.headers().firstValue("Set-Cookie").orElseThrow();
        return cookie.substring(0, cookie.indexOf(';'));
    }
}
