package dev.hindsight.ingest.keys;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasItem;
import static org.hamcrest.Matchers.not;

import dev.hindsight.testing.HindsightTestResource;
import dev.hindsight.testing.TestTenants;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.common.ResourceArg;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import io.restassured.path.json.JsonPath;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/** Issuing, using, rotating and revoking API keys through the admin API, on the real broker and registry. */
@QuarkusTest
@QuarkusTestResource(value = HindsightTestResource.class, initArgs = @ResourceArg(name = "database", value = "false"))
class KeyResourceTest {

    private static JsonPath issue(String body) {
        return given().contentType(ContentType.JSON).header("Authorization", TestTenants.TENANT_A.bearer())
                .body(body).when().post("/v1/admin/api-keys")
                .then().statusCode(201).extract().jsonPath();
    }

    private static int startSession(String apiKey) {
        return given().contentType(ContentType.JSON).header("Authorization", "Bearer " + apiKey)
                .body("{\"session_id\": \"key-" + UUID.randomUUID() + "\", \"kind\": \"chat\"}")
                .when().post("/v1/sessions").then().extract().statusCode();
    }

    @Test
    void anIssuedKeyWorksAtOnceForItsTenantWithItsScopesAndIsListedWithoutItsSecret() {
        JsonPath key = issue("{\"scopes\": [\"ingest\"], \"name\": \"ci pipeline\"}");
        String apiKey = key.getString("api_key");
        assertThat(apiKey).startsWith("hsk_").hasSizeGreaterThan(40);
        assertThat(key.getString("tenant")).isEqualTo(TestTenants.TENANT_A.tenant());
        assertThat(key.getList("scopes", String.class)).containsExactly("ingest");

        assertThat(startSession(apiKey)).isEqualTo(202);
        // Its scopes only: no admin API with an ingest key.
        given().header("Authorization", "Bearer " + apiKey).when().get("/v1/admin/api-keys")
                .then().statusCode(403);

        String list = given().header("Authorization", TestTenants.TENANT_A.bearer())
                .when().get("/v1/admin/api-keys").then().statusCode(200)
                .body("keys.key_id", hasItem(key.getString("key_id")))
                .extract().asString();
        assertThat(list).doesNotContain(apiKey).doesNotContain("sha256");
        given().header("Authorization", TestTenants.TENANT_A.bearer())
                .when().get("/v1/admin/api-keys/" + key.getString("key_id")).then().statusCode(200)
                .body("active", equalTo(true)).body("name", equalTo("ci pipeline"));
    }

    @Test
    void aRevokedKeyIsRefusedAtOnce() {
        JsonPath key = issue("{\"scopes\": [\"ingest\", \"read\"]}");
        assertThat(startSession(key.getString("api_key"))).isEqualTo(202);
        given().header("Authorization", TestTenants.TENANT_A.bearer())
                .when().delete("/v1/admin/api-keys/" + key.getString("key_id")).then().statusCode(204);
        assertThat(startSession(key.getString("api_key"))).isEqualTo(401);
        given().header("Authorization", TestTenants.TENANT_A.bearer())
                .when().get("/v1/admin/api-keys/" + key.getString("key_id")).then().statusCode(200)
                .body("active", equalTo(false));
    }

    @Test
    void aRotatedKeyKeepsWorkingForItsGraceAndItsSuccessorAtOnce() {
        JsonPath old = issue("{\"scopes\": [\"ingest\"], \"name\": \"agent\"}");
        JsonPath graceful = given().contentType(ContentType.JSON)
                .header("Authorization", TestTenants.TENANT_A.bearer()).body("{\"grace_seconds\": 3600}")
                .when().post("/v1/admin/api-keys/" + old.getString("key_id") + "/rotate")
                .then().statusCode(201).body("replaces", equalTo(old.getString("key_id")))
                .body("name", equalTo("agent")).extract().jsonPath();
        assertThat(startSession(graceful.getString("api_key"))).isEqualTo(202);
        assertThat(startSession(old.getString("api_key"))).as("within the grace period").isEqualTo(202);

        JsonPath immediate = given().contentType(ContentType.JSON)
                .header("Authorization", TestTenants.TENANT_A.bearer()).body("{}")
                .when().post("/v1/admin/api-keys/" + graceful.getString("key_id") + "/rotate")
                .then().statusCode(201).extract().jsonPath();
        assertThat(startSession(graceful.getString("api_key"))).as("rotated without grace").isEqualTo(401);
        assertThat(startSession(immediate.getString("api_key"))).isEqualTo(202);
    }

    @Test
    void onlyAnAdministratorOfTheKeysTenantManagesIt() {
        JsonPath key = issue("{\"scopes\": [\"read\"]}");
        String path = "/v1/admin/api-keys/" + key.getString("key_id");
        given().header("Authorization", TestTenants.READ_ONLY_A.bearer()).when().get(path).then().statusCode(403);
        given().header("Authorization", TestTenants.TENANT_B.bearer()).when().delete(path).then().statusCode(403);
        // Tenant B's administrator: tenant A's key does not exist for it.
        given().header("Authorization", TestTenants.ADMIN_B.bearer()).when().get(path).then().statusCode(404);
        given().header("Authorization", TestTenants.ADMIN_B.bearer()).when().delete(path).then().statusCode(404);
        given().header("Authorization", TestTenants.ADMIN_B.bearer()).when().get("/v1/admin/api-keys")
                .then().statusCode(200).body("keys.key_id", not(hasItem(key.getString("key_id"))));
        given().header("Authorization", TestTenants.TENANT_A.bearer()).when().get(path)
                .then().statusCode(200).body("active", equalTo(true));
    }

    @Test
    void badRequestsNameTheirField() {
        given().contentType(ContentType.JSON).header("Authorization", TestTenants.TENANT_A.bearer())
                .body("{\"scopes\": []}").when().post("/v1/admin/api-keys")
                .then().statusCode(400).body("errors.field", hasItem("scopes"));
        given().contentType(ContentType.JSON).header("Authorization", TestTenants.TENANT_A.bearer())
                .body("{\"scopes\": [\"root\"]}").when().post("/v1/admin/api-keys")
                .then().statusCode(400).body("errors.field", hasItem("scopes[0]"));
        given().contentType(ContentType.JSON).header("Authorization", TestTenants.TENANT_A.bearer())
                .body("{\"scopes\": [\"read\"], \"expires_at\": \"2020-01-01T00:00:00Z\"}")
                .when().post("/v1/admin/api-keys")
                .then().statusCode(400).body("errors.field", hasItem("expires_at"));
        given().header("Authorization", TestTenants.TENANT_A.bearer())
                .when().delete("/v1/admin/api-keys/key_unknown").then().statusCode(404);
    }
}
