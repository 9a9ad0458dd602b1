package dev.hindsight.platform.consumer;

import static org.assertj.core.api.Assertions.assertThat;

import io.vertx.core.VertxException;
import io.vertx.pgclient.PgException;
import java.io.IOException;
import java.net.ConnectException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Which failures dead-letter an event (the data's fault) and which are retried until they pass (infrastructure). */
class FailureClassificationTest {

    @ParameterizedTest
    @ValueSource(strings = {"22021", "22P02", "23505", "23514", "42703", "22003"})
    void postgresRefusingTheDataIsTheDatasFault(String sqlState) {
        assertThat(TransactionalBatches.causedByData(new PgException("refused", "ERROR", sqlState, null))).isTrue();
    }

    @ParameterizedTest
    @ValueSource(strings = {"08006", "08001", "40001", "40P01", "53300", "57P01", "55P03", "58030", "XX000"})
    void postgresFailingIsTheInfrastructure(String sqlState) {
        assertThat(TransactionalBatches.causedByData(new PgException("down", "FATAL", sqlState, null))).isFalse();
    }

    @Test
    void connectionAndClientErrorsAreTheInfrastructure() {
        assertThat(TransactionalBatches.causedByData(new ConnectException("Connection refused"))).isFalse();
        assertThat(TransactionalBatches.causedByData(new IOException("reset"))).isFalse();
        assertThat(TransactionalBatches.causedByData(new VertxException("Connection was closed"))).isFalse();
        assertThat(TransactionalBatches.causedByData(new TransactionalBatches.NotReady("no generation yet"))).isFalse();
        assertThat(TransactionalBatches.causedByData(new io.smallrye.mutiny.TimeoutException())).isFalse();
    }

    @Test
    void theProjectionRefusingAnEventIsTheDatasFault() {
        assertThat(TransactionalBatches.causedByData(new IllegalArgumentException("unknown payload"))).isTrue();
        assertThat(TransactionalBatches.causedByData(new NullPointerException())).isTrue();
        assertThat(TransactionalBatches.causedByData(new ClassCastException())).isTrue();
    }
}
