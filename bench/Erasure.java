import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.UUID;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * How long erasing a data subject takes (issue #48): per run, one subject's SESSIONS chat sessions of MESSAGES messages
 * each are recorded and waited for in query-service, then the subject is erased through ingest-service
 * (POST /v1/erasures) and GET /v1/erasures/{id} is polled every 20 ms until every read model (query, evaluation,
 * memory) has applied it. Prints, per run and as percentiles, the time to the 202 (key topic read, keys destroyed,
 * erasure published) and to "complete". Needs a running system and its env (source .hindsight/env), whose key has
 * scope erase (./hindsight up's demo key does).
 *
 *   java bench/Erasure.java [runs=10] [sessions=100] [messages=100]
 */
public class Erasure {

    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    private static final Pattern ID = Pattern.compile("\"erasure_id\"\\s*:\\s*\"([^\"]+)\"");

    public static void main(String[] args) throws Exception {
        int runs = arg(args, 0, 10);
        int sessions = arg(args, 1, 100);
        int messages = arg(args, 2, 100);
        String ingest = System.getenv("HINDSIGHT_INGEST_URL");
        String query = System.getenv("HINDSIGHT_QUERY_URL");
        String auth = "Bearer " + System.getenv("HINDSIGHT_API_KEY");
        List<Long> accepted = new ArrayList<>();
        List<Long> complete = new ArrayList<>();
        for (int run = 1; run <= runs; run++) {
            String subject = "bench-" + UUID.randomUUID();
            List<String> ids = new ArrayList<>();
            for (int s = 0; s < sessions; s++) {
                String id = "erase-bench-" + UUID.randomUUID();
                ids.add(id);
                send(ingest + "/v1/sessions", auth, "{\"session_id\":\"" + id + "\",\"kind\":\"chat\",\"subject\":\""
                        + subject + "\",\"chat\":{\"title\":\"Erasure benchmark " + s + "\"}}", 202);
                StringBuilder body = new StringBuilder("{\"messages\":[");
                for (int m = 0; m < messages; m++) {
                    body.append(m == 0 ? "" : ",").append("{\"message_index\":").append(m).append(",\"role\":\"")
                            .append(m % 2 == 0 ? "user" : "assistant").append("\",\"content\":\"Message ").append(m)
                            .append(" of a session whose subject asked to be forgotten, with some words in it.\"}");
                }
                send(ingest + "/v1/sessions/" + id + "/messages", auth, body.append("]}").toString(), 202);
            }
            long waitStart = System.nanoTime();
            for (String id : ids) {
                while (!get(query + "/v1/sessions/" + id, auth).contains("\"total_messages\":" + messages)) {
                    if (System.nanoTime() - waitStart > Duration.ofMinutes(5).toNanos()) {
                        throw new IllegalStateException("session " + id + " not projected within 5 minutes");
                    }
                    Thread.sleep(50);
                }
            }
            long start = System.nanoTime();
            String answer = send(ingest + "/v1/erasures", auth, "{\"subject\":\"" + subject + "\"}", 202);
            long acceptedAt = System.nanoTime();
            Matcher id = ID.matcher(answer);
            if (!id.find()) {
                throw new IllegalStateException("no erasure_id in " + answer);
            }
            while (!get(ingest + "/v1/erasures/" + id.group(1), auth).contains("\"status\":\"complete\"")) {
                if (System.nanoTime() - start > Duration.ofMinutes(2).toNanos()) {
                    throw new IllegalStateException("erasure " + id.group(1) + " not complete within 2 minutes");
                }
                Thread.sleep(20);
            }
            long done = System.nanoTime();
            accepted.add((acceptedAt - start) / 1_000_000);
            complete.add((done - start) / 1_000_000);
            System.out.printf("run %d: %d sessions x %d messages: 202 after %d ms, complete after %d ms%n", run,
                    sessions, messages, accepted.get(accepted.size() - 1), complete.get(complete.size() - 1));
        }
        System.out.printf("202:      p50 %d ms, p99 %d ms, max %d ms%n", pct(accepted, 50), pct(accepted, 99),
                Collections.max(accepted));
        System.out.printf("complete: p50 %d ms, p99 %d ms, max %d ms (%d runs)%n", pct(complete, 50),
                pct(complete, 99), Collections.max(complete), runs);
    }

    private static String send(String url, String auth, String body, int expected) throws Exception {
        HttpResponse<String> answer = HTTP.send(HttpRequest.newBuilder(URI.create(url)).header("Authorization", auth)
                .header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.ofString(body)).build(),
                HttpResponse.BodyHandlers.ofString());
        if (answer.statusCode() != expected) {
            throw new IllegalStateException(url + " answered " + answer.statusCode() + ": " + answer.body());
        }
        return answer.body();
    }

    private static String get(String url, String auth) throws Exception {
        return HTTP.send(HttpRequest.newBuilder(URI.create(url)).header("Authorization", auth).GET().build(),
                HttpResponse.BodyHandlers.ofString()).body();
    }

    private static long pct(List<Long> values, int percentile) {
        List<Long> sorted = new ArrayList<>(values);
        Collections.sort(sorted);
        return sorted.get(Math.min(sorted.size() - 1, (int) Math.ceil(percentile / 100.0 * sorted.size()) - 1));
    }

    private static int arg(String[] args, int index, int fallback) {
        return args.length > index ? Integer.parseInt(args[index]) : fallback;
    }
}
