package dev.hindsight.system;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.hindsight.testing.TestTenants;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A producer at a steady rate through {@code POST /v1/events:batch}: chat messages for a pool of sessions, each with
 * the next message index of its session. It remembers which messages ingest acknowledged (an accepted item) and which
 * it may have written without saying so (an item answered unavailable, or a request that failed outright: such events
 * may still land, and must then land once), so that a drill can check every reader against them.
 */
final class SteadyLoad implements AutoCloseable {

    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;
    private static final int ITEMS_PER_REQUEST = 10;
    private static final int MESSAGES_PER_ITEM = 5;

    private final String ingest;
    private final List<String> sessions;
    private final Map<String, AtomicInteger> nextIndex = new ConcurrentHashMap<>();
    private final Map<String, Set<Integer>> acknowledged = new ConcurrentHashMap<>();
    private final Map<String, Set<Integer>> unconfirmed = new ConcurrentHashMap<>();
    private final AtomicLong acknowledgedEvents = new AtomicLong();
    private final AtomicLong refusedRequests = new AtomicLong();
    private final AtomicInteger cursor = new AtomicInteger();
    private final java.util.concurrent.atomic.AtomicReference<Throwable> failure =
            new java.util.concurrent.atomic.AtomicReference<>();
    private final ScheduledExecutorService senders = Executors.newScheduledThreadPool(4);
    private final Wire wire = new Wire(TestTenants.TENANT_A.bearer());

    private SteadyLoad(String ingest, List<String> sessions) {
        this.ingest = ingest;
        this.sessions = sessions;
        sessions.forEach(s -> {
            nextIndex.put(s, new AtomicInteger());
            acknowledged.put(s, ConcurrentHashMap.newKeySet());
            unconfirmed.put(s, ConcurrentHashMap.newKeySet());
        });
    }

    /** Starts {@code sessions} chat sessions, then sends about {@code eventsPerSecond} messages a second. */
    static SteadyLoad start(String ingest, String prefix, int sessions, int eventsPerSecond) {
        List<String> ids = new ArrayList<>();
        for (int i = 0; i < sessions; i++) {
            ids.add(prefix + "-" + i);
        }
        SteadyLoad load = new SteadyLoad(ingest, ids);
        load.startSessions();
        long periodMicros = 1_000_000L * ITEMS_PER_REQUEST * MESSAGES_PER_ITEM / eventsPerSecond;
        load.senders.scheduleAtFixedRate(load::sendOne, 0, periodMicros, TimeUnit.MICROSECONDS);
        return load;
    }

    private void startSessions() {
        for (int from = 0; from < sessions.size(); from += 100) {
            ObjectNode batch = NODES.objectNode();
            ArrayNode items = batch.putArray("items");
            for (String session : sessions.subList(from, Math.min(sessions.size(), from + 100))) {
                items.addObject().put("type", "session").set("body", NODES.objectNode().put("session_id", session)
                        .put("kind", "chat").<ObjectNode>set("labels", NODES.objectNode().put("project", "drill"))
                        .set("chat", NODES.objectNode().put("agent", "drill").put("model", "steady")));
            }
            Wire.Answer answer = wire.post(ingest + "/v1/events:batch", batch, false);
            if (answer.status() != 200 || answer.body().path("accepted").asInt() != items.size()) {
                throw new IllegalStateException("Could not start the drill's sessions: " + answer);
            }
        }
    }

    private void sendOne() {
        try {
            send();
        } catch (RuntimeException | Error e) {
            // A scheduled task that throws is silently never run again: keep the first failure for the drill instead.
            failure.compareAndSet(null, e);
        }
    }

    private void send() {
        ObjectNode batch = NODES.objectNode();
        ArrayNode items = batch.putArray("items");
        List<String> itemSessions = new ArrayList<>();
        List<List<Integer>> itemIndexes = new ArrayList<>();
        for (int i = 0; i < ITEMS_PER_REQUEST; i++) {
            String session = sessions.get(Math.floorMod(cursor.getAndIncrement(), sessions.size()));
            ArrayNode messages = NODES.arrayNode();
            List<Integer> indexes = new ArrayList<>();
            for (int m = 0; m < MESSAGES_PER_ITEM; m++) {
                int index = nextIndex.get(session).getAndIncrement();
                indexes.add(index);
                messages.addObject().put("message_index", index).put("role", index % 2 == 0 ? "user" : "assistant")
                        .put("content", (index % 2 == 0 ? "Should the agent retry step " : "Retried step ") + index
                                + " of " + session + " after the timeout, and it passed.");
            }
            items.addObject().put("type", "messages").put("session_id", session)
                    .set("body", NODES.objectNode().set("messages", messages));
            itemSessions.add(session);
            itemIndexes.add(indexes);
        }
        // Until the answer says otherwise, every message of the request may have been written.
        for (int i = 0; i < itemSessions.size(); i++) {
            unconfirmed.get(itemSessions.get(i)).addAll(itemIndexes.get(i));
        }
        Wire.Answer answer;
        try {
            answer = wire.post(ingest + "/v1/events:batch", batch, false);
        } catch (RuntimeException unreachable) {
            refusedRequests.incrementAndGet();
            return;
        }
        if (answer.status() != 200) {
            refusedRequests.incrementAndGet();
            return;
        }
        JsonNode results = answer.body().path("results");
        for (int i = 0; i < itemSessions.size(); i++) {
            String status = results.path(i).path("status").asText();
            if (status.equals("accepted")) {
                acknowledged.get(itemSessions.get(i)).addAll(itemIndexes.get(i));
                unconfirmed.get(itemSessions.get(i)).removeAll(itemIndexes.get(i));
                acknowledgedEvents.addAndGet(itemIndexes.get(i).size());
            } else if (status.equals("rejected")) {
                throw new IllegalStateException("ingest rejected a valid drill item: " + results.path(i));
            }
        }
    }

    /** Message indexes ingest acknowledged, per session. */
    Map<String, Set<Integer>> acknowledged() {
        return acknowledged;
    }

    /** Message indexes sent without an acknowledgement (they may or may not have been written), per session. */
    Map<String, Set<Integer>> unconfirmed() {
        return unconfirmed;
    }

    /** What went wrong in the load itself (a valid item rejected), or null. */
    Throwable failure() {
        return failure.get();
    }

    long acknowledgedEvents() {
        return acknowledgedEvents.get();
    }

    long refusedRequests() {
        return refusedRequests.get();
    }

    /** Stops sending and waits for the requests in flight to be answered. */
    @Override
    public void close() {
        senders.shutdown();
        try {
            if (!senders.awaitTermination(60, TimeUnit.SECONDS)) {
                senders.shutdownNow();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            senders.shutdownNow();
        }
    }
}
