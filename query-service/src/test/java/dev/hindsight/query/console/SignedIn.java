package dev.hindsight.query.console;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

import dev.hindsight.testing.TestTenants;
import io.restassured.response.Response;

/** Signs a test tenant's key in to the console, for every page's tests. */
public final class SignedIn {

    private SignedIn() {
    }

    /** The sign-in cookie of {@code who}'s key. */
    public static String cookie(TestTenants who) {
        Response answer = given().redirects().follow(false).formParam("api_key", who.key())
                .when().post("/ui/sign-in");
        assertThat(answer.statusCode()).as(answer.body().asString()).isEqualTo(303);
        return answer.cookie(ConsoleCookie.NAME);
    }
}
