package dev.hindsight.query.readmodel;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.hindsight.platform.problem.ProblemException;
import dev.hindsight.platform.tenant.TenantId;
import io.smallrye.mutiny.Uni;
import io.smallrye.mutiny.subscription.UniEmitter;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Supplier;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Given what was cached and which changes were heard, when a reader asks, then it gets a fresh answer. These cases
 * keep answers from their first read, to show invalidation in the fewest reads; what the default doorkeeper admits is
 * shown at the end.
 */
class ReadCacheTest {

    private static final Instant AT = Instant.parse("2025-10-02T10:00:00Z");
    private static final ReadCache.ReasoningFilters GPT5_OCT2 =
            new ReadCache.ReasoningFilters(null, LocalDate.of(2025, 10, 2), "gpt-5");

    private ReadCache cache;
    private final AtomicInteger loads = new AtomicInteger();

    @BeforeEach
    void openCache() {
        cache = new ReadCache(config(true, 1 << 20));
        cache.open();
    }

    @Test
    void aSecondReadIsAnsweredWithoutLoading() {
        Rendered first = read("s-1", 1);
        Rendered second = read("s-1", 1);

        assertThat(loads).hasValue(1);
        assertThat(second).isSameAs(first);
    }

    @Test
    void aChangeToTheSessionMakesTheNextReadLoadAgain() {
        read("s-1", 1);

        cache.invalidate(List.of(new Change(TenantId.of("tenant-a"), "session", "s-1", AT)));
        read("s-1", 1);

        assertThat(loads).hasValue(2);
    }

    @Test
    void summariesAndJudgementsOfTheSessionInvalidateItToo() {
        for (String kind : List.of("session_summarized", "trace_judged", Change.MESSAGE_SUMMARIZED)) {
            read("s-1", 1);
            cache.invalidate(List.of(new Change(TenantId.of("tenant-a"), kind, "s-1", AT)));
        }
        read("s-1", 1);

        assertThat(loads).hasValue(4);
    }

    @Test
    void changesOfOtherSessionsTenantsOrKindsKeepTheAnswer() {
        read("s-1", 1);

        cache.invalidate(List.of(new Change(TenantId.of("tenant-a"), "session", "s-2", AT),
                new Change(TenantId.of("tenant-b"), "session", "s-1", AT),
                new Change(TenantId.of("tenant-a"), "decision_set", "s-1", AT),
                new Change(TenantId.of("tenant-a"), "evaluation", "s-1", AT)));
        read("s-1", 1);

        assertThat(loads).hasValue(1);
    }

    @Test
    void aLoadOvertakenByAChangeAnswersItsReaderButIsNotKept() {
        AtomicReference<UniEmitter<? super Rendered>> pending = new AtomicReference<>();
        Uni<Rendered> reader = cache.session(TenantId.of("tenant-a"), "s-1", 1,
                () -> Uni.createFrom().<Rendered>emitter(pending::set));
        AtomicReference<Rendered> answered = new AtomicReference<>();
        reader.subscribe().with(answered::set);

        cache.invalidate(List.of(new Change(TenantId.of("tenant-a"), "session", "s-1", AT)));
        pending.get().complete(rendered("before the change", 1));

        assertThat(answered.get()).isNotNull();
        assertThat(cache.holdsSession(TenantId.of("tenant-a"), "s-1")).isFalse();
        read("s-1", 1);
        assertThat(loads).hasValue(1);
    }

    @Test
    void readersOfTheSameSessionShareOneLoad() {
        AtomicReference<UniEmitter<? super Rendered>> pending = new AtomicReference<>();
        AtomicInteger started = new AtomicInteger();
        Supplier<Uni<Rendered>> load = () -> {
            started.incrementAndGet();
            return Uni.createFrom().<Rendered>emitter(pending::set);
        };
        AtomicReference<Rendered> first = new AtomicReference<>();
        AtomicReference<Rendered> second = new AtomicReference<>();
        cache.session(TenantId.of("tenant-a"), "s-1", 1, load).subscribe().with(first::set);
        cache.session(TenantId.of("tenant-a"), "s-1", 1, load).subscribe().with(second::set);

        pending.get().complete(rendered("once", 1));

        assertThat(started).hasValue(1);
        assertThat(second.get()).isSameAs(first.get());
    }

    @Test
    void aFailedLoadIsNotKept() {
        Supplier<Uni<Rendered>> missing = () -> {
            loads.incrementAndGet();
            return Uni.createFrom().failure(ProblemException.notFound("No session s-9"));
        };

        assertThatThrownBy(() -> cache.session(TenantId.of("tenant-a"), "s-9", 1, missing).await().atMost(Duration.ofSeconds(1)))
                .isInstanceOf(ProblemException.class);
        assertThatThrownBy(() -> cache.session(TenantId.of("tenant-a"), "s-9", 1, missing).await().atMost(Duration.ofSeconds(1)))
                .isInstanceOf(ProblemException.class);
        assertThat(loads).hasValue(2);
    }

    @Test
    void aChangeToTheSessionDropsItsConsolePagesForAdminsAndOthersAlike() {
        Supplier<Uni<Rendered>> page = () -> {
            loads.incrementAndGet();
            return Uni.createFrom().item(Rendered.page("<p>s-1</p>".getBytes(StandardCharsets.UTF_8), 1,
                    Set.of("s-1")));
        };
        cache.consoleSession(TenantId.of("tenant-a"), true, "s-1", 1, page).await().indefinitely();
        cache.consoleSession(TenantId.of("tenant-a"), false, "s-1", 1, page).await().indefinitely();
        cache.consoleSession(TenantId.of("tenant-a"), false, "s-1", 1, page).await().indefinitely();
        assertThat(loads).hasValue(2);

        cache.invalidate(List.of(new Change(TenantId.of("tenant-a"), "session", "s-1", AT)));
        cache.consoleSession(TenantId.of("tenant-a"), true, "s-1", 1, page).await().indefinitely();
        cache.consoleSession(TenantId.of("tenant-a"), false, "s-1", 1, page).await().indefinitely();

        assertThat(loads).hasValue(4);
    }

    @Test
    void aConsolePageIsSentCompressedOnlyToABrowserThatAcceptsGzip() throws Exception {
        byte[] html = "<p>a page</p>".repeat(100).getBytes(StandardCharsets.UTF_8);
        Rendered page = Rendered.page(html, 1, Set.of());

        jakarta.ws.rs.core.Response gzip = page.respondHtml("gzip, deflate, br");
        assertThat(gzip.getHeaderString("Content-Encoding")).isEqualTo("gzip");
        byte[] sent = (byte[]) gzip.getEntity();
        assertThat(sent.length).isLessThan(html.length / 4);
        try (var in = new java.util.zip.GZIPInputStream(new java.io.ByteArrayInputStream(sent))) {
            assertThat(in.readAllBytes()).isEqualTo(html);
        }
        jakarta.ws.rs.core.Response plain = page.respondHtml(null);
        assertThat(plain.getHeaderString("Content-Encoding")).isNull();
        assertThat((byte[]) plain.getEntity()).isEqualTo(html);
    }

    @Test
    void aReaderWhoJoinedAFailedLoadGetsItsOwnAnswer() {
        AtomicReference<UniEmitter<? super Rendered>> pending = new AtomicReference<>();
        AtomicInteger started = new AtomicInteger();
        Supplier<Uni<Rendered>> load = () -> started.incrementAndGet() == 1
                ? Uni.createFrom().<Rendered>emitter(pending::set)
                : Uni.createFrom().failure(ProblemException.notFound("No session s-9 (second look)"));
        AtomicReference<Throwable> first = new AtomicReference<>();
        AtomicReference<Throwable> second = new AtomicReference<>();
        cache.session(TenantId.of("tenant-a"), "s-9", 1, load).subscribe().with(r -> { }, first::set);
        cache.session(TenantId.of("tenant-a"), "s-9", 1, load).subscribe().with(r -> { }, second::set);

        pending.get().fail(ProblemException.notFound("No session s-9"));

        assertThat(first.get()).isInstanceOf(ProblemException.class).hasMessage("No session s-9");
        assertThat(second.get()).isInstanceOf(ProblemException.class).hasMessage("No session s-9 (second look)");
        assertThat(started).hasValue(2);
    }

    @Test
    void anAnswerOfAnotherGenerationIsReloaded() {
        read("s-1", 1);
        Rendered rebuilt = read("s-1", 2);

        assertThat(loads).hasValue(2);
        assertThat(rebuilt.generation()).isEqualTo(2);
        read("s-1", 2);
        assertThat(loads).hasValue(2);
    }

    @Test
    void aClosedCacheLoadsEveryTimeAndReopensEmpty() {
        read("s-1", 1);
        cache.close();
        read("s-1", 1);
        read("s-1", 1);
        assertThat(loads).hasValue(3);

        cache.open();
        read("s-1", 1);
        read("s-1", 1);
        assertThat(loads).hasValue(4);
    }

    @Test
    void aDisabledCacheNeverKeeps() {
        cache = new ReadCache(config(false, 1 << 20));
        cache.open();

        read("s-1", 1);
        read("s-1", 1);

        assertThat(loads).hasValue(2);
        assertThat(cache.isOpen()).isFalse();
    }

    @Test
    void everythingDropsEveryAnswer() {
        read("s-1", 1);
        readReasoning(GPT5_OCT2, Set.of("s-1"));

        cache.invalidate(List.of(Change.everything(AT)));

        assertThat(cache.size()).isZero();
    }

    @Test
    void aReasoningAnswerIsDroppedWhenASessionItShowsChanges() {
        readReasoning(GPT5_OCT2, Set.of("s-1", "s-2"));
        cache.invalidate(List.of(new Change(TenantId.of("tenant-a"), "session", "s-3", AT)));
        readReasoning(GPT5_OCT2, Set.of("s-1", "s-2"));
        assertThat(loads).hasValue(1);

        cache.invalidate(List.of(new Change(TenantId.of("tenant-a"), "session_summarized", "s-2", AT)));
        readReasoning(GPT5_OCT2, Set.of("s-1", "s-2"));

        assertThat(loads).hasValue(2);
    }

    @Test
    void aReasoningAnswerIsDroppedWhenATradingSessionItsFiltersMatchStarts() {
        readReasoning(GPT5_OCT2, Set.of("s-1"));

        cache.invalidate(List.of(new Change(TenantId.of("tenant-a"), "session", "s-new", AT,
                new Change.TradingDay("job-9", LocalDate.of(2025, 10, 3), "gpt-5"))));
        readReasoning(GPT5_OCT2, Set.of("s-1"));
        assertThat(loads).as("another day does not match").hasValue(1);

        cache.invalidate(List.of(new Change(TenantId.of("tenant-b"), "session", "s-new", AT,
                new Change.TradingDay("job-9", LocalDate.of(2025, 10, 2), "gpt-5"))));
        readReasoning(GPT5_OCT2, Set.of("s-1"));
        assertThat(loads).as("another tenant does not match").hasValue(1);

        cache.invalidate(List.of(new Change(TenantId.of("tenant-a"), "session", "s-new", AT,
                new Change.TradingDay("job-9", LocalDate.of(2025, 10, 2), "gpt-5"))));
        readReasoning(GPT5_OCT2, Set.of("s-1", "s-new"));
        assertThat(loads).hasValue(2);
    }

    @Test
    void reasoningFiltersMatchOnEveryGivenFieldOnly() {
        Change.TradingDay day = new Change.TradingDay("job-1", LocalDate.of(2025, 10, 2), "gpt-5");

        assertThat(new ReadCache.ReasoningFilters(null, null, null).matches(day)).isTrue();
        assertThat(new ReadCache.ReasoningFilters("job-1", null, null).matches(day)).isTrue();
        assertThat(new ReadCache.ReasoningFilters("job-2", null, null).matches(day)).isFalse();
        assertThat(new ReadCache.ReasoningFilters(null, LocalDate.of(2025, 10, 2), "gpt-5").matches(day)).isTrue();
        assertThat(new ReadCache.ReasoningFilters(null, null, "gpt-4").matches(day)).isFalse();
    }

    @Test
    void answersBeyondTheByteBudgetAreEvicted() {
        cache = new ReadCache(config(true, 20_000));
        cache.open();

        for (int i = 0; i < 100; i++) {
            read("s-" + i, 1);
        }
        cache.cleanUp();

        assertThat(cache.weight()).isLessThanOrEqualTo(20_000);
        assertThat(cache.size()).isLessThan(100);
    }

    @Test
    void theEntityTagFollowsTheBytes() {
        assertThat(rendered("a", 1).etag()).isEqualTo(rendered("a", 2).etag());
        assertThat(rendered("a", 1).etag()).isNotEqualTo(rendered("b", 1).etag());
    }

    private Rendered read(String sessionId, int generation) {
        return cache.session(TenantId.of("tenant-a"), sessionId, generation, () -> {
            loads.incrementAndGet();
            return Uni.createFrom().item(rendered(sessionId + " v" + loads.get() + "x".repeat(1000), generation));
        }).await().atMost(Duration.ofSeconds(1));
    }

    private Rendered readReasoning(ReadCache.ReasoningFilters filters, Set<String> shown) {
        return cache.reasoning(TenantId.of("tenant-a"), filters, true, "", 1, () -> {
            loads.incrementAndGet();
            return Uni.createFrom().item(Rendered.of(("reasoning v" + loads.get()).getBytes(StandardCharsets.UTF_8),
                    1, shown));
        }).await().atMost(Duration.ofSeconds(1));
    }

    private static Rendered rendered(String body, int generation) {
        return Rendered.of(body.getBytes(StandardCharsets.UTF_8), generation, Set.of());
    }

    @Test
    void byDefaultAnAnswerIsKeptFromItsSecondRead() {
        cache = new ReadCache(config(true, 1 << 20, false));
        cache.open();

        read("s-1", 1);
        assertThat(cache.holdsSession(TenantId.of("tenant-a"), "s-1")).isFalse();
        Rendered second = read("s-1", 1);
        assertThat(cache.holdsSession(TenantId.of("tenant-a"), "s-1")).isTrue();
        Rendered third = read("s-1", 1);

        assertThat(loads).hasValue(2);
        assertThat(third).isSameAs(second);
    }

    @Test
    void byDefaultAnswersReadOnceEachAreNotKept() {
        cache = new ReadCache(config(true, 1 << 30, false));
        cache.open();

        for (int i = 0; i < 10_000; i++) {
            read("s-" + i, 1);
        }
        cache.cleanUp();

        assertThat(loads).hasValue(10_000);
        // A doorkeeper false positive may let a handful in; a cache that kept every first read would hold 10,000.
        assertThat(cache.size()).isLessThan(50);
    }

    @Test
    void byDefaultAChangeStillDropsAKeptAnswer() {
        cache = new ReadCache(config(true, 1 << 20, false));
        cache.open();
        read("s-1", 1);
        read("s-1", 1);

        cache.invalidate(List.of(new Change(TenantId.of("tenant-a"), "session", "s-1", AT)));
        Rendered after = read("s-1", 1);

        assertThat(loads).hasValue(3);
        assertThat(new String(after.body(), StandardCharsets.UTF_8)).startsWith("s-1 v3");
    }

    private static ReadCacheConfig config(boolean enabled, long maxBytes) {
        return config(enabled, maxBytes, true);
    }

    private static ReadCacheConfig config(boolean enabled, long maxBytes, boolean admitFirstRead) {
        return new ReadCacheConfig() {
            @Override
            public boolean admitFirstRead() {
                return admitFirstRead;
            }

            @Override
            public boolean enabled() {
                return enabled;
            }

            @Override
            public long maxBytes() {
                return maxBytes;
            }

            @Override
            public Duration ttl() {
                return Duration.ofMinutes(10);
            }
        };
    }
}
