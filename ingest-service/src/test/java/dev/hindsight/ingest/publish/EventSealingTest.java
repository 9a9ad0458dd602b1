package dev.hindsight.ingest.publish;

import static org.assertj.core.api.Assertions.assertThat;

import dev.hindsight.events.reasoning.SessionStarted;
import dev.hindsight.events.spans.SpanRecorded;
import org.junit.jupiter.api.Test;

/** Which person an event names as what its session or trace is about, for the key it is sealed under. */
class EventSealingTest {

    @Test
    void aSessionStartNamesItsSubject() {
        SessionStarted started = new SessionStarted();
        assertThat(EventSealing.subject(started)).isNull();
        started.setSubject("u-1");
        assertThat(EventSealing.subject(started)).isEqualTo("u-1");
    }

    @Test
    void aSpanNamesItsUserIdOnItselfOrItsResourceAndUserIdWinsOverEnduserId() {
        assertThat(EventSealing.subject(span("{\"user.id\":\"u-42\",\"enduser.id\":\"old\"}", "{}"))).isEqualTo("u-42");
        assertThat(EventSealing.subject(span("{\"enduser.id\":\"old\"}", "{\"user.id\":\"u-7\"}"))).isEqualTo("u-7");
        assertThat(EventSealing.subject(span("{\"enduser.id\":\"old\"}", "{}"))).isEqualTo("old");
        assertThat(EventSealing.subject(span("{\"user.id\":7}", "{}"))).isEqualTo("7");
    }

    @Test
    void noUserOrAnEmptyOneOrOneThatIsNotAValueNamesNobody() {
        assertThat(EventSealing.subject(span("{\"gen_ai.operation.name\":\"chat\"}", "{}"))).isNull();
        assertThat(EventSealing.subject(span("{\"user.id\":\"\"}", "{}"))).isNull();
        assertThat(EventSealing.subject(span("{\"user.id\":{\"a\":1}}", "{}"))).isNull();
        assertThat(EventSealing.subject(span("{\"note\":\"mentions \\\"user.id\\\" in text\"}", "{}"))).isNull();
        assertThat(EventSealing.subject("not an event")).isNull();
    }

    private static SpanRecorded span(String attributes, String resource) {
        SpanRecorded span = new SpanRecorded();
        span.setAttributes(attributes);
        span.setResourceAttributes(resource);
        return span;
    }
}
