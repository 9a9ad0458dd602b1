package dev.hindsight.query.console;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.hindsight.events.reasoning.ChatAttributes;
import dev.hindsight.events.reasoning.MessageRecorded;
import dev.hindsight.events.reasoning.MessageRole;
import dev.hindsight.events.reasoning.SessionKind;
import dev.hindsight.events.reasoning.SessionStarted;
import dev.hindsight.events.reasoning.StepType;
import dev.hindsight.events.reasoning.ThinkingStep;
import dev.hindsight.testing.HindsightTestResource;
import dev.hindsight.testing.TestEvents;
import dev.hindsight.testing.TestTenants;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.response.Response;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * Given sessions in the read model (real broker, registry and PostgreSQL), when a person signs in with an API key and
 * opens the console's pages over HTTP, then they see their tenant's sessions as text, in order, under a strict
 * content policy, and nothing else. What a browser does with the pages is shown by the browser tests.
 */
@QuarkusTest
@QuarkusTestResource(HindsightTestResource.class)
class ConsoleTest {

    private static final Instant T0 = Instant.parse("2025-10-02T10:00:00Z");

    @Test
    void aVisitorWhoIsNotSignedInIsSentToSignInAndBackAfterwards() {
        given().redirects().follow(false).when().get("/").then().statusCode(303)
                .header("Location", org.hamcrest.Matchers.endsWith("/ui/sessions"));
        given().redirects().follow(false).when().get("/ui/sessions?kind=chat").then().statusCode(303)
                .header("Location", org.hamcrest.Matchers.endsWith("/ui/sign-in?next=%2Fui%2Fsessions%3Fkind%3Dchat"));

        Response form = given().when().get("/ui/sign-in?next=/ui/sessions?kind=chat");
        assertThat(form.statusCode()).isEqualTo(200);
        assertThat(form.body().asString()).contains("name=\"api_key\"")
                .contains("value=\"/ui/sessions?kind=chat\"");

        Response signedIn = given().redirects().follow(false).formParam("api_key", TestTenants.TENANT_A.key())
                .formParam("next", "/ui/sessions?kind=chat").when().post("/ui/sign-in");
        assertThat(signedIn.statusCode()).isEqualTo(303);
        assertThat(signedIn.header("Location")).endsWith("/ui/sessions?kind=chat");
        String setCookie = signedIn.header("Set-Cookie");
        assertThat(setCookie).startsWith(ConsoleCookie.NAME + "=v1.").containsIgnoringCase("HttpOnly")
                .containsIgnoringCase("SameSite=Strict").contains("Path=/ui").contains("Max-Age=28800")
                .doesNotContain(TestTenants.TENANT_A.key());
    }

    @Test
    void aWrongKeyIsRefusedOnTheFormAndANextOutsideTheConsoleIsIgnored() {
        Response refused = given().redirects().follow(false).formParam("api_key", "not-a-key")
                .formParam("next", "//evil.example/").when().post("/ui/sign-in");
        assertThat(refused.statusCode()).isEqualTo(401);
        assertThat(refused.header("Set-Cookie")).isNull();
        assertThat(refused.body().asString()).contains("This API key is not valid")
                .contains("value=\"/ui/sessions\"");

        Response noRead = given().redirects().follow(false).formParam("api_key", TestTenants.ADMIN_B.key())
                .when().post("/ui/sign-in");
        assertThat(noRead.statusCode()).isEqualTo(401);
        assertThat(noRead.body().asString()).contains("lacks the read scope");

        given().redirects().follow(false).header("Origin", "https://evil.example")
                .formParam("api_key", TestTenants.TENANT_A.key()).when().post("/ui/sign-in")
                .then().statusCode(403);
        Response offSite = given().redirects().follow(false).formParam("api_key", TestTenants.TENANT_A.key())
                .formParam("next", "https://evil.example/").when().post("/ui/sign-in");
        assertThat(offSite.header("Location")).endsWith("/ui/sessions");
    }

    @io.quarkus.test.common.http.TestHTTPResource("/ui/sign-in")
    java.net.URI signInForm;

    @Test
    void aFormPostedFromTheConsolesOwnPageSignsInOverHttp1AndHttp2() throws Exception {
        // A browser sends Origin with every POST, its own page's too. Over HTTP/2 the host comes as :authority, with
        // no Host header; both must be recognised as the console's own origin.
        String origin = signInForm.getScheme() + "://" + signInForm.getAuthority();
        for (java.net.http.HttpClient.Version version : java.net.http.HttpClient.Version.values()) {
            java.net.http.HttpClient http = java.net.http.HttpClient.newBuilder().version(version).build();
            java.net.http.HttpRequest form = java.net.http.HttpRequest.newBuilder(signInForm)
                    .header("Content-Type", "application/x-www-form-urlencoded").header("Origin", origin)
                    .POST(java.net.http.HttpRequest.BodyPublishers.ofString("api_key=" + TestTenants.TENANT_A.key()))
                    .build();
            // The first request of an HTTP/2 client may still be HTTP/1.1 (it asks to upgrade): send until it is not.
            java.net.http.HttpResponse<String> answer = http.send(form,
                    java.net.http.HttpResponse.BodyHandlers.ofString());
            if (version == java.net.http.HttpClient.Version.HTTP_2) {
                answer = http.send(form, java.net.http.HttpResponse.BodyHandlers.ofString());
            }
            assertThat(answer.version()).as("the protocol spoken").isEqualTo(version);
            assertThat(answer.statusCode()).as("%s: %s", version, answer.body()).isEqualTo(303);
            assertThat(answer.headers().firstValue("Set-Cookie")).isPresent();
        }
    }

    @Test
    void aSessionPageShowsTheConversationAndEachMessagesStepsInOrderAsText() {
        String sessionId = "console-" + UUID.randomUUID();
        String script = "<script>alert('x')</script>";
        TestEvents.session("tenant-a", sessionId,
                SessionStarted.newBuilder().setKind(SessionKind.CHAT).setStartedAt(T0)
                        .setChat(ChatAttributes.newBuilder().setAgent("agent <b>").setModel("gpt-5").build()).build(),
                message(0, MessageRole.USER, "What is " + script + "?", List.of()),
                message(1, MessageRole.ASSISTANT, "An <img src=x onerror=alert(1)> tag.", List.of(
                        step(1, StepType.TOOL, null, "search", "{\"q\":\"" + script.replace("'", "") + "\"}"),
                        step(0, StepType.REASONING, "First I think.", null, null),
                        step(2, StepType.REASONING, "Then I answer.", null, null))));
        String cookie = SignedIn.cookie(TestTenants.TENANT_A);

        // The session's row may be projected before its messages: wait until the page shows both.
        await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> given().cookie(ConsoleCookie.NAME, cookie)
                .when().get("/ui/sessions/" + sessionId).then().statusCode(200)
                .body(org.hamcrest.Matchers.containsString("id=\"session-messages\">2<")));
        Response page = given().cookie(ConsoleCookie.NAME, cookie).when().get("/ui/sessions/" + sessionId);
        String html = page.body().asString();

        assertThat(page.contentType()).startsWith("text/html");
        assertThat(page.header("Content-Security-Policy")).contains("script-src 'self'")
                .contains("frame-ancestors 'none'").doesNotContain("unsafe-inline");
        assertThat(page.header("X-Content-Type-Options")).isEqualTo("nosniff");
        assertThat(page.header("Cache-Control")).isEqualTo("no-store");
        // Everything the agent wrote is text: no tag of its survives.
        assertThat(html).doesNotContain("<script>alert").doesNotContain("<img src=x").doesNotContain("<b>")
                .contains("&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt;").contains("&lt;img src=x onerror=");
        assertThat(html.indexOf("What is")).isLessThan(html.indexOf("An &lt;img"));
        assertThat(html.indexOf("First I think.")).isLessThan(html.indexOf("search"));
        assertThat(html.indexOf("search")).isLessThan(html.indexOf("Then I answer."));
        assertThat(html).contains("id=\"m1-s0\"").contains("id=\"m1-s1\"").contains("id=\"m1-s2\"");

        Response list = given().cookie(ConsoleCookie.NAME, cookie).when().get("/ui/sessions?kind=chat&model=gpt-5");
        assertThat(list.statusCode()).isEqualTo(200);
        assertThat(list.body().asString()).contains(sessionId);
    }

    @Test
    void aKeptSessionPageShowsAMessageRecordedAfterItWasKept() {
        String sessionId = "console-kept-" + UUID.randomUUID();
        TestEvents.session("tenant-a", sessionId, SessionStarted.newBuilder().setKind(SessionKind.CHAT)
                .setStartedAt(T0).build(), message(0, MessageRole.USER, "The first question.", List.of()));
        String cookie = SignedIn.cookie(TestTenants.TENANT_A);
        await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> assertThat(given().cookie(ConsoleCookie.NAME,
                cookie).when().get("/ui/sessions/" + sessionId).body().asString()).contains("The first question."));
        // Read again (and again, gzip and not): the page is now kept rendered.
        given().cookie(ConsoleCookie.NAME, cookie).header("Accept-Encoding", "gzip").when()
                .get("/ui/sessions/" + sessionId).then().statusCode(200).header("Content-Encoding", "gzip");
        given().cookie(ConsoleCookie.NAME, cookie).when().get("/ui/sessions/" + sessionId).then().statusCode(200);

        TestEvents.session("tenant-a", sessionId, message(1, MessageRole.ASSISTANT, "A later answer.", List.of()));

        await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> assertThat(given().cookie(ConsoleCookie.NAME,
                cookie).when().get("/ui/sessions/" + sessionId).body().asString()).contains("A later answer."));
    }

    @Test
    void aLongMessageIsCutOnTheSessionPageAndWholeOnItsOwnPage() {
        String sessionId = "console-long-" + UUID.randomUUID();
        String longText = "step by step " + "x".repeat(2_990) + " the end";
        TestEvents.session("tenant-a", sessionId, SessionStarted.newBuilder().setKind(SessionKind.CHAT)
                .setStartedAt(T0).build(), message(0, MessageRole.ASSISTANT, longText, List.of(
                        step(0, StepType.REASONING, "r".repeat(2_500) + " last thought", null, null))));
        String cookie = SignedIn.cookie(TestTenants.TENANT_A);

        await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> given().cookie(ConsoleCookie.NAME, cookie)
                .when().get("/ui/sessions/" + sessionId).then().statusCode(200));
        String page = given().cookie(ConsoleCookie.NAME, cookie).when().get("/ui/sessions/" + sessionId).body()
                .asString();
        assertThat(page).contains("step by step").doesNotContain(" the end").doesNotContain(" last thought")
                .contains("show all " + longText.length() + " characters")
                .contains("href=\"/ui/sessions/" + sessionId + "/messages/0\"")
                .contains("href=\"/ui/sessions/" + sessionId + "/messages/0#m0-s0\"");

        String whole = given().cookie(ConsoleCookie.NAME, cookie).when()
                .get("/ui/sessions/" + sessionId + "/messages/0").body().asString();
        assertThat(whole).contains(longText).contains("r".repeat(2_500) + " last thought").contains("id=\"m0-s0\"");
        given().cookie(ConsoleCookie.NAME, cookie).when().get("/ui/sessions/" + sessionId + "/messages/7")
                .then().statusCode(404);
    }

    @Test
    void anotherTenantsSessionIsTheSameNotFoundPageAsAMissingOne() {
        String sessionId = "console-b-" + UUID.randomUUID();
        TestEvents.session("tenant-b", sessionId, SessionStarted.newBuilder().setKind(SessionKind.CHAT)
                .setStartedAt(T0).build());
        String cookieB = SignedIn.cookie(TestTenants.TENANT_B);
        await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> given().cookie(ConsoleCookie.NAME, cookieB)
                .when().get("/ui/sessions/" + sessionId).then().statusCode(200));

        Response foreign = given().cookie(ConsoleCookie.NAME, SignedIn.cookie(TestTenants.TENANT_A))
                .when().get("/ui/sessions/" + sessionId);
        assertThat(foreign.statusCode()).isEqualTo(404);
        assertThat(foreign.contentType()).startsWith("text/html");
        assertThat(foreign.body().asString()).contains("No session " + sessionId);
    }

    @Test
    void aForgedCookieSignsNobodyInAndTheCookieNeverOpensTheApi() {
        String cookie = SignedIn.cookie(TestTenants.TENANT_A);
        String[] parts = cookie.split("\\.");
        String forged = String.join(".", parts[0], parts[1], Long.toString(Long.parseLong(parts[2]) + 86_400),
                parts[3]);

        given().redirects().follow(false).cookie(ConsoleCookie.NAME, forged).when().get("/ui/sessions")
                .then().statusCode(303);
        given().cookie(ConsoleCookie.NAME, cookie).when().get("/v1/sessions").then().statusCode(401);
        given().cookie(ConsoleCookie.NAME, forged).when().get("/ui/live/sessions").then().statusCode(401);

        Response signedOut = given().redirects().follow(false).cookie(ConsoleCookie.NAME, cookie)
                .when().post("/ui/sign-out");
        assertThat(signedOut.statusCode()).isEqualTo(303);
        assertThat(signedOut.header("Set-Cookie")).startsWith(ConsoleCookie.NAME + "=;").contains("Max-Age=0");
    }

    @Test
    void theListPagesThroughEveryMatchingSessionOnceNewestFirst() {
        String batch = UUID.randomUUID().toString();
        java.util.Set<String> sent = new java.util.HashSet<>();
        for (int i = 0; i < 55; i++) {
            String id = "console-page-" + i + "-" + batch;
            sent.add(id);
            TestEvents.session("tenant-a", id, SessionStarted.newBuilder().setKind(SessionKind.CHAT).setStartedAt(T0)
                    .setLabels(java.util.Map.of("batch", batch)).build());
        }
        String cookie = SignedIn.cookie(TestTenants.TENANT_A);
        String first = "/ui/sessions?label=batch%3D" + batch;
        // The links are sent as the page has them, already encoded.
        await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> assertThat(rows(given().urlEncodingEnabled(false)
                .cookie(ConsoleCookie.NAME, cookie).when().get(first).body().asString())).hasSize(50));

        String page = given().urlEncodingEnabled(false).cookie(ConsoleCookie.NAME, cookie).when().get(first).body()
                .asString();
        List<String> shown = new java.util.ArrayList<>(rows(page));
        java.util.regex.Matcher next = java.util.regex.Pattern.compile("id=\"next-page\" href=\"([^\"]+)\"")
                .matcher(page);
        assertThat(next.find()).as("a link to the older sessions").isTrue();
        String second = given().urlEncodingEnabled(false).cookie(ConsoleCookie.NAME, cookie).when()
                .get(next.group(1).replace("&amp;", "&")).body().asString();
        shown.addAll(rows(second));

        assertThat(shown).hasSize(55).doesNotHaveDuplicates().containsExactlyInAnyOrderElementsOf(sent);
        assertThat(second).doesNotContain("id=\"next-page\"");
    }

    private static List<String> rows(String html) {
        List<String> ids = new java.util.ArrayList<>();
        java.util.regex.Matcher row = java.util.regex.Pattern.compile("data-session-id=\"([^\"]+)\"").matcher(html);
        while (row.find()) {
            ids.add(row.group(1));
        }
        return ids;
    }

    @Test
    void anInvalidFilterIsSaidOnTheFormAsA400() {
        Response page = given().cookie(ConsoleCookie.NAME, SignedIn.cookie(TestTenants.TENANT_A))
                .when().get("/ui/sessions?kind=robot&from=yesterday");
        assertThat(page.statusCode()).isEqualTo(400);
        assertThat(page.contentType()).startsWith("text/html");
        assertThat(page.body().asString()).contains("kind must be one of trading, chat, debug")
                .contains("from must be a date");
    }

    @Test
    void theOperationsPageIsForAdminKeysAndShowsGenerationsLagAndDeadLetters() {
        Response forbidden = given().cookie(ConsoleCookie.NAME, SignedIn.cookie(TestTenants.READ_ONLY_A)).when().get("/ui/ops");
        assertThat(forbidden.statusCode()).isEqualTo(403);
        assertThat(forbidden.body().asString()).contains("needs an API key with the admin scope");

        await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> {
            Response ops = given().cookie(ConsoleCookie.NAME, SignedIn.cookie(TestTenants.TENANT_A)).when().get("/ui/ops");
            assertThat(ops.statusCode()).isEqualTo(200);
            String html = ops.body().asString();
            assertThat(html).contains("data-state=\"current\"").contains("class=\"group\"")
                    .contains("id=\"search-model\" data-model=\"all-minilm-l6-v2-q\"")
                    .contains("data-topic=\"hindsight.query.reasoning.dlq\"").doesNotContain("did not answer");
        });
    }

    private static MessageRecorded message(int index, MessageRole role, String content, List<ThinkingStep> steps) {
        return MessageRecorded.newBuilder().setMessageIndex(index).setRole(role).setContent(content)
                .setTimestamp(T0.plusSeconds(index)).setThinkingSteps(steps).build();
    }

    private static ThinkingStep step(int order, StepType type, String content, String tool, String arguments) {
        return ThinkingStep.newBuilder().setStepOrder(order).setStepType(type).setContent(content).setToolName(tool)
                .setToolArguments(arguments).build();
    }
}
