import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.UUID;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Freshness of query-service (issue #4): from ingest's answer to "visible in the read model", under a steady offered
 * load. Sends RATE events/s for SECONDS through POST /v1/events:batch (open loop: a batch is due every
 * 1/(RATE/EVENTS) s whether or not earlier ones were answered; each batch is ITEMS messages items of 2 messages, i.e.
 * 2*ITEMS events, each item in a new session). Visible means query-service committed it: its live stream
 * (GET /v1/stream, server-sent events sent after the projection's commit) names every session a committed batch
 * touched, so each session's freshness is the time from ingest's answer to its first appearance on the stream (0 if
 * the stream was first). One stream, no polling: the measurement adds no load that grows with lag. Sessions never
 * seen within 60 s of the last answer are counted as lost. Needs a running system and its env (source
 * .hindsight/env).
 *
 * <p>Also prints ingest's answer time, counted from when each batch was due (so a load generator that falls behind
 * shows as latency, not as a lower rate) and, with {@code timeline}, both per second of the run, so a stall shows
 * when it happened and on which side.
 *
 * <p>The generator runs on the machine it measures, so it is lean: plain HTTP/1.1 keep-alive connections on blocking
 * sockets, one thread each (the JDK's HttpClient cost a quarter of a core at 80 requests/s), and it is meant to run
 * with a cheap JIT: {@code java -XX:TieredStopAtLevel=1 -XX:+UseSerialGC bench/Freshness.java ...}.
 *
 *   java bench/Freshness.java [rate=2000] [seconds=30] [items=25] [timeline]
 */
public class Freshness {

    private static final int CONNECTIONS = 8;

    /** A batch to send, and when it was due. */
    private record Due(long at, List<String> sessions) {
    }

    public static void main(String[] args) throws Exception {
        int rate = arg(args, 0, 2000);
        int seconds = arg(args, 1, 30);
        int items = arg(args, 2, 25);
        boolean timeline = args.length > 3 && args[3].equals("timeline");
        URI ingest = URI.create(System.getenv("HINDSIGHT_INGEST_URL") + "/v1/events:batch");
        URI stream = URI.create(System.getenv("HINDSIGHT_QUERY_URL") + "/v1/stream");
        String auth = "Bearer " + System.getenv("HINDSIGHT_API_KEY");

        Map<String, Long> visible = new ConcurrentHashMap<>();
        Map<String, Long> answered = new ConcurrentHashMap<>();
        Map<String, Long> due = new ConcurrentHashMap<>();
        Http live = new Http(stream);
        InputStream events = live.open("GET", stream.getRawPath(), auth, "text/event-stream");
        Thread reader = new Thread(() -> {
            try {
                StringBuilder line = new StringBuilder();
                for (int c; (c = events.read()) >= 0; ) {
                    if (c != '\n') {
                        line.append((char) c);
                        continue;
                    }
                    int at = line.indexOf("\"id\":\"fresh-");
                    if (at >= 0) {
                        visible.putIfAbsent(line.substring(at + 6, line.indexOf("\"", at + 6)), System.nanoTime());
                    }
                    line.setLength(0);
                }
            } catch (IOException ended) {
                // the run is over
            }
        }, "live-stream");
        reader.setDaemon(true);
        reader.start();

        int eventsPerBatch = 2 * items;
        long periodNanos = Math.round(1e9 * eventsPerBatch / rate);
        long batches = Math.round((double) seconds * rate / eventsPerBatch);
        AtomicLong accepted = new AtomicLong();
        AtomicLong failed = new AtomicLong();
        BlockingQueue<Due> queue = new ArrayBlockingQueue<>((int) batches + 1);
        CountDownLatch done = new CountDownLatch(CONNECTIONS);
        for (int c = 0; c < CONNECTIONS; c++) {
            Thread sender = new Thread(() -> {
                Http http = new Http(ingest);
                try {
                    for (Due batch; (batch = queue.take()).sessions() != null; ) {
                        try {
                            Http.Response response = http.send("POST", ingest.getRawPath(), auth, body(batch.sessions()));
                            long now = System.nanoTime();
                            if (response.status() != 200 || !response.body().contains("\"accepted\":" + items)) {
                                failed.incrementAndGet();
                                System.err.println("ingest answered " + response.status() + ": "
                                        + response.body().substring(0, Math.min(300, response.body().length())));
                                continue;
                            }
                            accepted.addAndGet(eventsPerBatch);
                            for (String session : batch.sessions()) {
                                answered.put(session, now);
                                due.put(session, batch.at());
                            }
                        } catch (IOException e) {
                            failed.incrementAndGet();
                            System.err.println("request failed: " + e);
                            http.close();
                        }
                    }
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                } finally {
                    done.countDown();
                }
            }, "sender-" + c);
            sender.setDaemon(true);
            sender.start();
        }

        long start = System.nanoTime();
        for (long b = 0; b < batches; b++) {
            long at = start + b * periodNanos;
            long wait = at - System.nanoTime();
            if (wait > 0) {
                TimeUnit.NANOSECONDS.sleep(wait);
            }
            List<String> sessions = new ArrayList<>(items);
            for (int i = 0; i < items; i++) {
                sessions.add("fresh-" + UUID.randomUUID());
            }
            queue.put(new Due(at, sessions));
        }
        double sendSeconds = (System.nanoTime() - start) / 1e9;
        for (int c = 0; c < CONNECTIONS; c++) {
            queue.put(new Due(0, null));
        }
        done.await(120, TimeUnit.SECONDS);
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (!visible.keySet().containsAll(answered.keySet()) && System.nanoTime() < deadline) {
            TimeUnit.MILLISECONDS.sleep(50);
        }
        live.close();

        long[] sorted = answered.entrySet().stream().filter(e -> visible.containsKey(e.getKey()))
                .mapToLong(e -> Math.max(0, visible.get(e.getKey()) - e.getValue())).sorted().toArray();
        System.out.printf("offered %d events/s for %d s; ingest accepted %d events (%.0f/s), %d batches failed%n",
                rate, seconds, accepted.get(), accepted.get() / sendSeconds, failed.get());
        if (sorted.length == 0) {
            System.out.println("no session became visible");
            return;
        }
        System.out.printf("freshness (ingest answer -> session on query-service's live stream), %d sessions, %d never "
                        + "seen: p50 %.1f ms, p95 %.1f ms, p99 %.1f ms, max %.1f ms%n",
                sorted.length, answered.size() - sorted.length, pct(sorted, 50), pct(sorted, 95), pct(sorted, 99),
                sorted[sorted.length - 1] / 1e6);
        long[] answers = answered.entrySet().stream().mapToLong(e -> e.getValue() - due.get(e.getKey())).sorted()
                .toArray();
        System.out.printf("ingest answer time (due to answer): p50 %.1f ms, p95 %.1f ms, p99 %.1f ms, max %.1f ms%n",
                pct(answers, 50), pct(answers, 95), pct(answers, 99), answers[answers.length - 1] / 1e6);
        if (timeline) {
            System.out.println("second  sessions  ingest-p99-ms  fresh-p50-ms  fresh-p99-ms  fresh-max-ms");
            Map<Long, List<long[]>> bySecond = new TreeMap<>();
            answered.forEach((session, at) -> {
                Long seen = visible.get(session);
                bySecond.computeIfAbsent((due.get(session) - start) / 1_000_000_000L, k -> new ArrayList<>())
                        .add(new long[] {at - due.get(session), seen == null ? Long.MAX_VALUE : seen - at});
            });
            bySecond.forEach((second, rows) -> {
                long[] ingestTimes = rows.stream().mapToLong(r -> r[0]).sorted().toArray();
                long[] fresh = rows.stream().mapToLong(r -> Math.max(0, r[1])).sorted().toArray();
                System.out.printf("%6d  %8d  %13.1f  %12.1f  %12.1f  %12.1f%n", second, rows.size(),
                        pct(ingestTimes, 99), pct(fresh, 50), pct(fresh, 99), fresh[fresh.length - 1] / 1e6);
            });
        }
    }

    private static double pct(long[] sorted, int p) {
        return sorted[Math.min(sorted.length - 1, (int) Math.ceil(sorted.length * p / 100.0) - 1)] / 1e6;
    }

    private static byte[] body(List<String> sessions) {
        StringBuilder body = new StringBuilder("{\"items\": [");
        for (int i = 0; i < sessions.size(); i++) {
            if (i > 0) {
                body.append(',');
            }
            body.append("{\"type\": \"messages\", \"session_id\": \"").append(sessions.get(i))
                    .append("\", \"body\": {\"messages\": [")
                    .append("{\"message_index\": 0, \"role\": \"user\", \"content\": \"").append("x".repeat(200))
                    .append("\"}, {\"message_index\": 1, \"role\": \"assistant\", \"content\": \"")
                    .append("y".repeat(200)).append("\"}]}}");
        }
        return body.append("]}").toString().getBytes(StandardCharsets.UTF_8);
    }

    private static int arg(String[] args, int index, int fallback) {
        return args.length > index ? Integer.parseInt(args[index]) : fallback;
    }

    /** One HTTP/1.1 keep-alive connection on a blocking socket: just enough of the protocol for this benchmark. */
    static final class Http {

        record Response(int status, String body) {
        }

        private final URI base;
        private Socket socket;
        private InputStream in;
        private OutputStream out;

        Http(URI base) {
            this.base = base;
        }

        Response send(String method, String path, String auth, byte[] body) throws IOException {
            connect();
            out.write((method + " " + path + " HTTP/1.1\r\nHost: " + base.getHost() + "\r\nAuthorization: " + auth
                    + "\r\nContent-Type: application/json\r\nContent-Length: " + body.length + "\r\n\r\n")
                    .getBytes(StandardCharsets.US_ASCII));
            out.write(body);
            out.flush();
            int status = status();
            InputStream content = content(headers());
            return new Response(status, new String(content.readAllBytes(), StandardCharsets.UTF_8));
        }

        /** Sends a request without a body and returns its response body as it arrives (for a stream). */
        InputStream open(String method, String path, String auth, String accept) throws IOException {
            connect();
            out.write((method + " " + path + " HTTP/1.1\r\nHost: " + base.getHost() + "\r\nAuthorization: " + auth
                    + "\r\nAccept: " + accept + "\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
            out.flush();
            int status = status();
            if (status != 200) {
                throw new IOException(method + " " + path + " answered " + status);
            }
            return content(headers());
        }

        void close() {
            if (socket != null) {
                try {
                    socket.close();
                } catch (IOException ignored) {
                    // closing anyway
                }
                socket = null;
            }
        }

        private void connect() throws IOException {
            if (socket == null) {
                socket = new Socket(base.getHost(), base.getPort());
                socket.setTcpNoDelay(true);
                in = new BufferedInputStream(socket.getInputStream(), 65536);
                out = new BufferedOutputStream(socket.getOutputStream(), 65536);
            }
        }

        private int status() throws IOException {
            String line = line();
            return Integer.parseInt(line.substring(9, 12));
        }

        private Map<String, String> headers() throws IOException {
            Map<String, String> headers = new TreeMap<>(String.CASE_INSENSITIVE_ORDER);
            for (String line; !(line = line()).isEmpty(); ) {
                int colon = line.indexOf(':');
                headers.put(line.substring(0, colon).trim(), line.substring(colon + 1).trim());
            }
            return headers;
        }

        private InputStream content(Map<String, String> headers) {
            if ("chunked".equalsIgnoreCase(headers.get("Transfer-Encoding"))) {
                return new Chunked();
            }
            long length = Long.parseLong(headers.getOrDefault("Content-Length", "0"));
            return new InputStream() {
                long left = length;

                @Override
                public int read() throws IOException {
                    if (left == 0) {
                        return -1;
                    }
                    left--;
                    return in.read();
                }

                @Override
                public byte[] readAllBytes() throws IOException {
                    byte[] all = in.readNBytes((int) left);
                    left = 0;
                    return all;
                }
            };
        }

        private String line() throws IOException {
            ByteArrayOutputStream line = new ByteArrayOutputStream(128);
            for (int c; (c = in.read()) != '\n'; ) {
                if (c < 0) {
                    throw new IOException("connection closed");
                }
                if (c != '\r') {
                    line.write(c);
                }
            }
            return line.toString(StandardCharsets.US_ASCII);
        }

        /** A chunked body, read as one stream. */
        private final class Chunked extends InputStream {
            private long left;
            private boolean ended;

            @Override
            public int read() throws IOException {
                if (ended) {
                    return -1;
                }
                if (left == 0) {
                    String size = line();
                    if (size.isEmpty()) {
                        size = line(); // the CRLF that ends the previous chunk
                    }
                    left = Long.parseLong(size.split(";")[0].trim(), 16);
                    if (left == 0) {
                        line();
                        ended = true;
                        return -1;
                    }
                }
                left--;
                return in.read();
            }
        }
    }
}
