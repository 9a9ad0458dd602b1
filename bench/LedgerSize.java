import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.UUID;

/**
 * Whether the consumer ledgers stay flat under a long load (issue #49): for MINUTES minutes, one chat session of
 * MESSAGES messages is recorded every second through ingest-service, and every 15 s the rows of every
 * processed_event table (each read-model generation's in hindsight_query, evaluation's and memory's) are counted with
 * psql. With the services started with a short window, e.g.
 *
 *   HINDSIGHT_JAVA_OPTS="-Dhindsight.consumer.dedup-window=60s -Dhindsight.consumer.ledger-prune-every=10s" ./hindsight up
 *   source .hindsight/env && java bench/LedgerSize.java [minutes=6] [messages=100]
 *
 * the counts stop growing once the window is full (about window + prune interval of events), while the events sent
 * keep growing. Needs psql on PATH reaching the databases as ./hindsight up made them (PGHOST, PGPORT).
 */
public class LedgerSize {

    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    private static final String COUNT = "SELECT coalesce(sum((xpath('/row/c/text()', query_to_xml(format("
            + "'SELECT count(*) AS c FROM %I.%I', schemaname, relname), false, true, '')))[1]::text::bigint), 0) "
            + "FROM pg_stat_user_tables WHERE relname = 'processed_event'";

    public static void main(String[] args) throws Exception {
        int minutes = args.length > 0 ? Integer.parseInt(args[0]) : 6;
        int messages = args.length > 1 ? Integer.parseInt(args[1]) : 100;
        String ingest = System.getenv("HINDSIGHT_INGEST_URL");
        String auth = "Bearer " + System.getenv("HINDSIGHT_API_KEY");
        long start = System.nanoTime();
        long end = start + Duration.ofMinutes(minutes).toNanos();
        long nextSample = start;
        long sent = 0;
        System.out.println("elapsed_s events_sent ledger_query ledger_evaluation ledger_memory");
        while (System.nanoTime() < end) {
            long second = System.nanoTime();
            String id = "ledger-bench-" + UUID.randomUUID();
            send(ingest + "/v1/sessions", auth, "{\"session_id\":\"" + id + "\",\"kind\":\"chat\",\"chat\":{\"title\":"
                    + "\"Ledger benchmark\"}}");
            StringBuilder body = new StringBuilder("{\"messages\":[");
            for (int m = 0; m < messages; m++) {
                body.append(m == 0 ? "" : ",").append("{\"message_index\":").append(m).append(",\"role\":\"")
                        .append(m % 2 == 0 ? "user" : "assistant").append("\",\"content\":\"Message ").append(m)
                        .append(" of a long load that the ledgers must not grow with.\"}");
            }
            send(ingest + "/v1/sessions/" + id + "/messages", auth, body.append("]}").toString());
            sent += messages + 1;
            if (System.nanoTime() >= nextSample) {
                System.out.printf("%d %d %d %d %d%n", (System.nanoTime() - start) / 1_000_000_000L, sent,
                        count("hindsight_query"), count("hindsight_evaluation"), count("hindsight_memory"));
                nextSample += Duration.ofSeconds(15).toNanos();
            }
            long rest = Duration.ofSeconds(1).toMillis() - (System.nanoTime() - second) / 1_000_000;
            if (rest > 0) {
                Thread.sleep(rest);
            }
        }
    }

    private static void send(String url, String auth, String body) throws Exception {
        HttpResponse<String> answer = HTTP.send(HttpRequest.newBuilder(URI.create(url)).header("Authorization", auth)
                .header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.ofString(body)).build(),
                HttpResponse.BodyHandlers.ofString());
        if (answer.statusCode() != 202) {
            throw new IllegalStateException(url + " answered " + answer.statusCode() + ": " + answer.body());
        }
    }

    private static long count(String database) throws Exception {
        Process psql = new ProcessBuilder("psql", "-X", "-At", "-U", "postgres", "-d", database, "-c", COUNT)
                .redirectErrorStream(true).start();
        String out = new String(psql.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
        if (psql.waitFor() != 0) {
            throw new IllegalStateException("psql " + database + ": " + out);
        }
        return Long.parseLong(out);
    }
}
