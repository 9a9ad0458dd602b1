package dev.hindsight.deploy.k8s;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class PromqlTest {

    @Test
    void findsTheSeriesOfAnExpression() {
        assertThat(Promql.metrics("sum by (consumergroup) (kafka_consumergroup_lag{consumergroup=~\"hindsight-.+\"})"
                + " / clamp_min(sum by (consumergroup) (rate(kafka_consumergroup_current_offset{x=\"y\"}[10m])), 1) > 300"))
                .containsExactly("kafka_consumergroup_lag", "kafka_consumergroup_current_offset");
    }

    @Test
    void skipsFunctionsKeywordsLabelsNumbersAndVariables() {
        assertThat(Promql.metrics("histogram_quantile(0.95, sum by (le, kind) (rate(a_bucket[$__rate_interval])))"
                + " and on (namespace, pod) (b == 0) > 3 * 3600 unless c offset 5m"))
                .containsExactly("a_bucket", "b", "c");
    }

    @Test
    void readsAMetricWhoseNameLooksLikeAKeywordPrefix() {
        assertThat(Promql.metrics("time() - kube_cronjob_status_last_successful_time{cronjob=\"x\"} > 3 * 3600"))
                .containsExactly("kube_cronjob_status_last_successful_time");
    }
}
