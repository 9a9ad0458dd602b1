package dev.hindsight.ingest.publish;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.hindsight.events.HindsightTopic;
import dev.hindsight.platform.registry.SchemaRegistrar;
import dev.hindsight.testing.HindsightTestResource;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.common.ResourceArg;
import io.quarkus.test.junit.QuarkusTest;
import org.apache.avro.Schema;
import org.apache.avro.SchemaBuilder;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.junit.jupiter.api.Test;

/** The registry, as ingest left it at start-up, guards every topic's schema with BACKWARD_TRANSITIVE. */
@QuarkusTest
@QuarkusTestResource(value = HindsightTestResource.class, initArgs = @ResourceArg(name = "database", value = "false"))
class SchemaCompatibilityTest {

    @ConfigProperty(name = "mp.messaging.connector.smallrye-kafka.apicurio.registry.url")
    String registryUrl;

    @Test
    void everySourceTopicIsRegisteredWithBackwardTransitiveCompatibility() {
        SchemaRegistrar registrar = new SchemaRegistrar(registryUrl);
        for (HindsightTopic topic : HindsightTopic.writtenBy("ingest-service")) {
            assertThat(registrar.compatibilityOf("default", topic.valueArtifactId())).as(topic.name())
                    .isEqualTo("BACKWARD_TRANSITIVE");
        }
    }

    @Test
    void registryRejectsAFieldAddedWithoutDefault() throws Exception {
        // On the real artifact: a refused version changes nothing that the serializers read.
        Schema current = HindsightTopic.REASONING.valueSchema();
        String artifact = HindsightTopic.REASONING.valueArtifactId();
        int before = versions(artifact);
        SchemaRegistrar registrar = new SchemaRegistrar(registryUrl);

        assertThatThrownBy(() -> registrar.addVersionIfNew("default", artifact, withExtraField(current, false)))
                .isInstanceOf(SchemaRegistrar.IncompatibleSchemaException.class);
        assertThat(versions(artifact)).isEqualTo(before);
    }

    @Test
    void registryAcceptsAFieldAddedWithDefault() throws Exception {
        // On an artifact of this test's own, registered as ingest registers the signals topic's: a new version here
        // would otherwise become the latest one every serializer of the shared registry writes with.
        String artifact = "compatibility-test-" + java.util.UUID.randomUUID();
        SchemaRegistrar registrar = new SchemaRegistrar(registryUrl);
        registrar.register("default", artifact, HindsightTopic.SIGNALS.valueSchema());
        assertThat(registrar.compatibilityOf("default", artifact)).isEqualTo("BACKWARD_TRANSITIVE");

        registrar.addVersionIfNew("default", artifact, withExtraField(HindsightTopic.SIGNALS.valueSchema(), true));

        assertThat(versions(artifact)).isEqualTo(2);
        assertThat(latest(artifact)).contains("\"added_in_test\"");
        assertThatThrownBy(() -> registrar.addVersionIfNew("default", artifact,
                withExtraField(HindsightTopic.SIGNALS.valueSchema(), false)))
                .as("the same field without a default, against both versions")
                .isInstanceOf(SchemaRegistrar.IncompatibleSchemaException.class);
        assertThat(versions(artifact)).isEqualTo(2);
    }

    @Test
    void registeringTheSameSchemaAgainAddsNoVersion() throws Exception {
        // Every writer registers its schemas at every start: a rollout must not add a version per pod.
        SchemaRegistrar registrar = new SchemaRegistrar(registryUrl);
        String artifact = HindsightTopic.DECISIONS.valueArtifactId();
        int before = versions(artifact);

        registrar.register("default", artifact, HindsightTopic.DECISIONS.valueSchema());
        registrar.register("default", artifact, HindsightTopic.DECISIONS.valueSchema());

        assertThat(versions(artifact)).isEqualTo(before);
    }

    private int versions(String artifact) throws Exception {
        var answer = java.net.http.HttpClient.newHttpClient().send(java.net.http.HttpRequest.newBuilder(
                java.net.URI.create(registryUrl + "/groups/default/artifacts/" + artifact + "/versions?limit=1000"))
                .build(), java.net.http.HttpResponse.BodyHandlers.ofString());
        assertThat(answer.statusCode()).as(answer.body()).isEqualTo(200);
        return new com.fasterxml.jackson.databind.ObjectMapper().readTree(answer.body()).path("count").asInt();
    }

    private String latest(String artifact) throws Exception {
        var answer = java.net.http.HttpClient.newHttpClient().send(java.net.http.HttpRequest.newBuilder(
                java.net.URI.create(registryUrl + "/groups/default/artifacts/" + artifact
                        + "/versions/branch=latest/content")).build(),
                java.net.http.HttpResponse.BodyHandlers.ofString());
        assertThat(answer.statusCode()).as(answer.body()).isEqualTo(200);
        return answer.body();
    }

    /** The envelope plus a new string field, with or without a default; a new reader of old events needs one. */
    private static Schema withExtraField(Schema envelope, boolean withDefault) {
        var fields = SchemaBuilder.record(envelope.getName()).namespace(envelope.getNamespace()).fields();
        for (Schema.Field field : envelope.getFields()) {
            fields = fields.name(field.name()).type(field.schema()).noDefault();
        }
        var extra = fields.name("added_in_test").type().stringType();
        return withDefault ? extra.stringDefault("none").endRecord() : extra.noDefault().endRecord();
    }
}
