package dev.hindsight.system;

import static org.assertj.core.api.Assertions.assertThat;

import dev.hindsight.testing.PackagedService;
import dev.hindsight.testing.TestTenants;
import dev.hindsight.testing.TestTopics;
import java.io.IOException;
import java.net.ConnectException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/**
 * A rollout stops ingest-service with SIGTERM while producers are sending. Every request the service read completes:
 * answered, and its events are on the topic. A request sent while it stops either gets that answer too (with
 * {@code Connection: close}: the service is going away) or is refused without being read: no connection, or a
 * connection closed before any answer, and then none of its events is on the topic. Clients stop sending once told
 * the service is going away, as a producer behind a load balancer would go elsewhere.
 */
class GracefulShutdownIT {

    private static final int CLIENTS = 8;
    private static final int ITEMS = 100;

    /** What became of each request. */
    private final Set<String> accepted = ConcurrentHashMap.newKeySet();
    private final AtomicInteger refused = new AtomicInteger();
    private final AtomicInteger unreachable = new AtomicInteger();
    private final AtomicInteger acceptedAfterSigterm = new AtomicInteger();
    private final List<String> cut = new ArrayList<>();
    private final Set<String> unanswered = ConcurrentHashMap.newKeySet();
    private final AtomicInteger toldToGo = new AtomicInteger();
    private final List<String> unexpected = new ArrayList<>();
    private final AtomicLong sigtermAt = new AtomicLong(Long.MAX_VALUE);

    @Test
    void requestsInFlightAtSigtermFinishAndTheRestAreRefusedUnread() throws Exception {
        PackagedService ingest = PackagedService.start("ingest", Map.of("hindsight.ingest.quota.enabled", "false"));
        AtomicInteger answered = new AtomicInteger();
        CountDownLatch done = new CountDownLatch(CLIENTS);
        ExecutorService clients = Executors.newFixedThreadPool(CLIENTS);
        for (int c = 0; c < CLIENTS; c++) {
            clients.execute(() -> {
                try {
                    send(ingest.url(), answered);
                } finally {
                    done.countDown();
                }
            });
        }
        // Under load, then stopped as Kubernetes stops a pod.
        org.awaitility.Awaitility.await("requests answered before the stop").atMost(Duration.ofSeconds(60))
                .until(() -> answered.get() >= 40);
        sigtermAt.set(System.nanoTime());
        ingest.terminate();
        assertThat(done.await(60, TimeUnit.SECONDS)).as("every client stopped").isTrue();
        clients.shutdown();

        System.out.printf("graceful shutdown: %d sessions accepted (%d requests answered 200 after SIGTERM, %d of "
                + "them with Connection: close), %d refused with 503, %d clients found no server, %d requests got no "
                + "answer%n", accepted.size(), acceptedAfterSigterm.get(), toldToGo.get(), refused.get(),
                unreachable.get(), cut.size());
        assertThat(unexpected).as("answers other than 200 with every item accepted, or a stopping instance's 503")
                .isEmpty();
        assertThat(acceptedAfterSigterm.get()).as("requests in flight at SIGTERM that still completed")
                .isPositive();
        // Acknowledged means durable, and a request without an answer was not read: of the sessions sent, exactly
        // the accepted ones are on the topic (read for 15 s past the last accepted one, to see any unanswered one).
        Set<String> sent = new HashSet<>(accepted);
        sent.addAll(unanswered);
        var records = TestTopics.readRecords("hindsight.reasoning.v1", r -> sent.contains(r.key()),
                accepted.size() + (unanswered.isEmpty() ? 0 : 1), Duration.ofSeconds(unanswered.isEmpty() ? 60 : 15));
        Set<String> onTopic = new HashSet<>();
        records.forEach(r -> onTopic.add(r.key()));
        assertThat(onTopic).as("sessions on the topic (" + cut + ")").containsAll(accepted);
        assertThat(onTopic.stream().filter(unanswered::contains).toList())
                .as("sessions of requests that got no answer, yet were read:\n" + ingest.logTail(30)).isEmpty();
        assertThat(records).as("each accepted session once").hasSize(accepted.size());
    }

    /** Sends batches of new sessions until the service refuses or is gone. */
    private void send(String url, AtomicInteger answered) {
        HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
                .connectTimeout(Duration.ofSeconds(2)).build();
        while (true) {
            List<String> sessions = new ArrayList<>();
            StringBuilder body = new StringBuilder("{\"items\": [");
            for (int i = 0; i < ITEMS; i++) {
                String session = "shutdown-" + UUID.randomUUID();
                sessions.add(session);
                body.append(i == 0 ? "" : ",").append("{\"type\": \"session\", \"body\": {\"session_id\": \"")
                        .append(session).append("\", \"kind\": \"chat\"}}");
            }
            body.append("]}");
            HttpRequest request = HttpRequest.newBuilder(URI.create(url + "/v1/events:batch"))
                    .timeout(Duration.ofSeconds(30))
                    .header("Authorization", TestTenants.TENANT_A.bearer())
                    .header("Content-Type", "application/json")
                    .POST(HttpRequest.BodyPublishers.ofString(body.toString())).build();
            long sent = System.nanoTime();
            HttpResponse<String> response;
            try {
                response = http.send(request, HttpResponse.BodyHandlers.ofString());
            } catch (ConnectException e) {
                unreachable.incrementAndGet();
                return;
            } catch (IOException e) {
                // No answer: the connection closed under the request. Read or not, the topic will tell.
                synchronized (cut) {
                    cut.add(e.toString());
                }
                unanswered.addAll(sessions);
                return;
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
            answered.incrementAndGet();
            if (response.statusCode() == 503 && response.body().contains("did not read the request")) {
                // The refusal of an instance that is stopping: the request was not read.
                refused.incrementAndGet();
                return;
            }
            if (response.statusCode() != 200 || !response.body().contains("\"rejected\":0")
                    || !response.body().contains("\"unavailable\":0")) {
                synchronized (unexpected) {
                    unexpected.add(response.statusCode() + " " + response.body());
                }
                return;
            }
            accepted.addAll(sessions);
            if (sent < sigtermAt.get() && System.nanoTime() > sigtermAt.get()) {
                acceptedAfterSigterm.incrementAndGet();
            }
            if (response.headers().allValues("Connection").stream().anyMatch(v -> v.equalsIgnoreCase("close"))) {
                toldToGo.incrementAndGet();
                return;
            }
        }
    }
}
