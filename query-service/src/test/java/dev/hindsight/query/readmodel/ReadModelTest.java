package dev.hindsight.query.readmodel;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class ReadModelTest {

    @Test
    void qualifiesEveryTableWithTheGenerationsSchema() {
        assertThat(new ReadModel(3).sql("INSERT INTO {rm}.session SELECT * FROM {rm}.message"))
                .isEqualTo("INSERT INTO rm_3.session SELECT * FROM rm_3.message");
        assertThat(new ReadModel(12).schema()).isEqualTo("rm_12");
    }

    @Test
    void generationsStartAtOne() {
        assertThatThrownBy(() -> new ReadModel(0)).isInstanceOf(IllegalArgumentException.class);
    }
}
