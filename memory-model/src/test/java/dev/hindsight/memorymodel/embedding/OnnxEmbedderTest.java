package dev.hindsight.memorymodel.embedding;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class OnnxEmbedderTest {

    @Test
    void aModelThatDoesNotShipIsRefusedWithTheOnesThatDo() {
        assertThatThrownBy(() -> OnnxEmbedder.load("all-minilm-l12"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("all-minilm-l12").hasMessageContaining(OnnxEmbedder.MINILM)
                .hasMessageContaining(OnnxEmbedder.BGE_SMALL);
    }

    @Test
    void everyShippedModelMakesUnitVectorsThatRankAParaphraseAboveAnUnrelatedText() {
        for (String id : OnnxEmbedder.MODELS) {
            OnnxEmbedder model = OnnxEmbedder.load(id);
            assertThat(model.modelId()).isEqualTo(id);
            float[] lesson = model.embed("Retry the HTTP call with exponential backoff when the server answers 503");
            float[] paraphrase = model.embed("what to do when a request keeps failing with service unavailable");
            float[] unrelated = model.embed("The cat sat on the mat in the afternoon sun");
            assertThat(lesson).hasSize(model.dimensions());
            assertThat(dot(lesson, lesson)).as(id).isCloseTo(1.0, org.assertj.core.data.Offset.offset(1e-3));
            assertThat(dot(lesson, paraphrase)).as(id).isGreaterThan(dot(lesson, unrelated));
        }
    }

    @Test
    void twoModelsVectorsOfTheSameTextDiffer() {
        float[] a = OnnxEmbedder.load(OnnxEmbedder.MINILM).embed("cache invalidation");
        float[] b = OnnxEmbedder.load(OnnxEmbedder.BGE_SMALL).embed("cache invalidation");
        assertThat(dot(a, b)).isLessThan(0.9);
    }

    private static double dot(float[] a, float[] b) {
        double sum = 0;
        for (int i = 0; i < a.length; i++) {
            sum += a[i] * b[i];
        }
        return sum;
    }
}
