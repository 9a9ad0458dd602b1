package dev.hindsight.testing;

import io.quarkus.test.common.QuarkusTestResourceLifecycleManager;
import java.util.HashMap;
import java.util.Map;

/**
 * The Quarkus test resource every service uses: the real Kafka broker, the real Apicurio Registry, the test API keys
 * ({@link TestTenants}) and, unless {@code database=false} is passed as an init argument, a fresh PostgreSQL database
 * per test application. No Docker is needed.
 */
public class HindsightTestResource implements QuarkusTestResourceLifecycleManager {

    private boolean withDatabase = true;
    private TestDatabase database;

    @Override
    public void init(Map<String, String> initArgs) {
        withDatabase = !"false".equalsIgnoreCase(initArgs.getOrDefault("database", "true"));
    }

    @Override
    public Map<String, String> start() {
        if (Boolean.getBoolean("hindsight.test.openapi-contract")) {
            OpenApiContract.install();
        }
        Map<String, String> config = new HashMap<>();
        config.put("kafka.bootstrap.servers", TestKafka.bootstrapServers());
        config.put("mp.messaging.connector.smallrye-kafka.apicurio.registry.url", TestRegistry.url());
        TestRegistry.registerSourceSchemas();
        config.putAll(TestTenants.config());
        // The in-JVM broker logs through the application's log manager; keep its chatter out of test output.
        config.put("quarkus.log.category.\"kafka\".level", "WARN");
        config.put("quarkus.log.category.\"org.apache.kafka\".level", "WARN");
        config.put("quarkus.log.category.\"state.change.logger\".level", "WARN");
        if (withDatabase) {
            database = TestDatabase.create("svc");
            config.put("quarkus.datasource.jdbc.url", database.jdbcUrl());
            config.put("quarkus.datasource.reactive.url", database.reactiveUrl());
            config.put("quarkus.datasource.username", TestDatabase.user());
            config.put("quarkus.datasource.password", TestDatabase.password());
        }
        return config;
    }

    @Override
    public void stop() {
        if (database != null) {
            database.close();
            database = null;
        }
    }
}
