package dev.hindsight.query.projection;

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
        assertThat(Projector.causedByData(new PgException("refused", "ERROR", sqlState, null))).isTrue();
    }

    @ParameterizedTest
    @ValueSource(strings = {"08006", "08001", "40001", "40P01", "53300", "57P01", "55P03", "58030", "XX000"})
    void postgresFailingIsTheInfrastructure(String sqlState) {
        assertThat(Projector.causedByData(new PgException("down", "FATAL", sqlState, null))).isFalse();
    }

    @Test
    void connectionAndClientErrorsAreTheInfrastructure() {
        assertThat(Projector.causedByData(new ConnectException("Connection refused"))).isFalse();
        assertThat(Projector.causedByData(new IOException("reset"))).isFalse();
        assertThat(Projector.causedByData(new VertxException("Connection was closed"))).isFalse();
        assertThat(Projector.causedByData(new Projector.NotReady("no generation yet"))).isFalse();
        assertThat(Projector.causedByData(new io.smallrye.mutiny.TimeoutException())).isFalse();
    }

    @Test
    void theProjectionRefusingAnEventIsTheDatasFault() {
        assertThat(Projector.causedByData(new IllegalArgumentException("unknown payload"))).isTrue();
        assertThat(Projector.causedByData(new NullPointerException())).isTrue();
        assertThat(Projector.causedByData(new ClassCastException())).isTrue();
    }
}
