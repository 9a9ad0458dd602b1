import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Retrieval quality of the ReasoningBank (issue #26): can an agent find the right lesson among thousands of memories
 * about the same things? The labelled lessons of bench/retrieval/lessons.txt (each with paraphrased questions that share
 * few words with it) are recorded into one project among generated same-domain memories (retries, caches, encodings,
 * locks, ...), then every question is searched through memory-service's REST API, as an agent would, and the rank of
 * its lesson is scored: recall@1, recall@5, MRR and nDCG@10 (one relevant memory per question), with search latency.
 * Needs a running system (./hindsight up) and its env: HINDSIGHT_MEMORY_URL, HINDSIGHT_API_KEY.
 *
 *   source .hindsight/env
 *   java bench/RetrievalQuality.java load PROJECT [distractors=5000] [clients=2]
 *   java bench/RetrievalQuality.java measure PROJECT [misses]      # "misses" lists questions not answered first
 *   java bench/RetrievalQuality.java export FILE [distractors=5000]  # the same corpus as JSON lines, for
 *                                                                      # EmbedderRetrievalBenchmark (offline, exact)
 *
 * The distractors are generated (seeded, so every run loads the same texts): a situation, a component, what was done
 * and a language, combined; they talk about the same subjects as the lessons without being any lesson.
 */
public class RetrievalQuality {

    static final Path LESSONS = Path.of("bench/retrieval/lessons.txt");
    static final int K = 10;

    record Lesson(String key, String title, String content, List<String> tags, List<String> questions) {
    }

    static final String[] SITUATIONS = {"requests timed out under load", "the retry loop kept failing",
            "cache hit rate dropped after a deploy", "a lock was held longer than expected", "the nightly batch ran late",
            "memory usage crept up over the week", "tests failed intermittently on CI", "the consumer lag kept growing",
            "a migration took longer than planned", "characters were mangled in an export", "the queue backed up",
            "latency spiked at the top of the hour", "a dependency upgrade changed behaviour",
            "the connection pool was saturated", "duplicate rows appeared in the table", "the API returned 500s",
            "a config change was not picked up", "the search index fell behind", "disk filled up on one node",
            "the job scheduler skipped a run", "a thread dump showed many blocked threads", "GC pauses grew long",
            "clients reconnected in bursts", "the build became slow", "logs were too noisy to read",
            "a feature flag behaved differently per environment", "the service started slowly", "a webhook was delivered twice",
            "metrics went missing from the dashboard", "a report showed inconsistent totals", "uploads failed for large files",
            "sessions expired too early", "an index was not used by the planner", "the worker crashed on some input",
            "response sizes grew unexpectedly", "a cron job overlapped with itself", "CPU was pegged on one core",
            "the message order looked wrong", "a rollback left partial data", "certificates expired unnoticed"};
    static final String[] COMPONENTS = {"auth service", "payment gateway", "CSV importer", "search indexer",
            "order consumer", "REST client", "CI pipeline", "schema migration", "job scheduler", "websocket server",
            "file uploader", "session store", "rate limiter", "email sender", "report generator", "feature flag service",
            "pricing engine", "inventory service", "metrics exporter", "image resizer", "notification worker",
            "billing batch", "GraphQL gateway", "audit log writer", "recommendation API", "cache layer",
            "event relay", "admin console", "sync job", "PDF renderer"};
    static final String[] ACTIONS = {"raised the pool size and watched saturation", "added a histogram metric to see the tail",
            "moved the work to a background queue", "split the batch into smaller chunks", "added an index on the filter column",
            "turned on debug logging for an hour", "rolled back the last deploy and compared", "increased the heap and tuned GC",
            "reduced the TTL of the entries", "added a health check for the dependency", "wrapped the call in a retry",
            "ran the query plan with EXPLAIN ANALYZE", "pinned the library to the previous version",
            "added a unit test around the parser", "switched to streaming the file instead of loading it",
            "compressed the payloads", "partitioned the table by month", "added a unique constraint",
            "scheduled the job off-peak", "shortened the lock scope", "added request tracing", "set a max body size",
            "replaced polling with a push notification", "warmed the cache at startup", "rotated the certificates by hand",
            "added a dashboard panel for the queue depth", "increased the number of partitions", "deduplicated on a key",
            "cleaned up old data with a retention job", "reviewed the thread pool settings", "added backpressure to the reader",
            "wrote a runbook for the on-call", "normalised the input before comparing", "bumped the timeout for the slow path",
            "added alerting on the error rate", "reproduced it locally with production data", "profiled with a flame graph",
            "moved the secret to the vault", "enabled connection keep-alive", "added a canary stage to the rollout"};
    static final String[] LANGUAGES = {"java", "go", "python", "typescript", "rust", "kotlin", "sql", "bash"};
    static final String[] VERDICTS = {"it helped", "it helped a little", "it did not change much", "it fixed it",
            "it made things worse at first", "it was enough for now"};

    public static void main(String[] args) throws Exception {
        String mode = args[0];
        String project = args[1];
        if (mode.equals("export")) {
            export(Path.of(project), lessons(), args.length > 2 ? Integer.parseInt(args[2]) : 5000);
            return;
        }
        String base = System.getenv("HINDSIGHT_MEMORY_URL");
        String auth = "Bearer " + System.getenv("HINDSIGHT_API_KEY");
        List<Lesson> lessons = lessons();
        switch (mode) {
            case "load" -> load(base, auth, project, lessons, args.length > 2 ? Integer.parseInt(args[2]) : 5000,
                    args.length > 3 ? Integer.parseInt(args[3]) : 2);
            case "measure" -> measure(base, auth, project, lessons, args.length > 2 && args[2].equals("misses"));
            default -> throw new IllegalArgumentException("mode: load | measure");
        }
    }

    static List<Lesson> lessons() throws IOException {
        List<Lesson> lessons = new ArrayList<>();
        String key = null, title = null, content = null;
        List<String> tags = List.of();
        List<String> questions = new ArrayList<>();
        for (String line : Files.readAllLines(LESSONS)) {
            if (line.startsWith("## ")) {
                if (key != null) {
                    lessons.add(new Lesson(key, title, content, tags, questions));
                }
                key = line.substring(3).trim();
                title = content = null;
                tags = List.of();
                questions = new ArrayList<>();
            } else if (line.startsWith("title: ")) {
                title = line.substring(7).trim();
            } else if (line.startsWith("content: ")) {
                content = line.substring(9).trim();
            } else if (line.startsWith("tags: ")) {
                tags = Arrays.stream(line.substring(6).split(",")).map(String::trim).toList();
            } else if (line.startsWith("q: ")) {
                questions.add(line.substring(3).trim());
            }
        }
        if (key != null) {
            lessons.add(new Lesson(key, title, content, tags, questions));
        }
        return lessons;
    }

    /**
     * The corpus as JSON lines: {"lesson": key, "title", "content"} per lesson, {"title", "content"} per distractor,
     * and {"question", "answer": key} per question.
     */
    static void export(Path file, List<Lesson> lessons, int distractors) throws IOException {
        List<String> lines = new ArrayList<>();
        for (Lesson l : lessons) {
            lines.add("{\"lesson\":" + quote(l.key()) + ",\"title\":" + quote(l.title()) + ",\"content\":"
                    + quote(l.content()) + "}");
        }
        Pattern field = Pattern.compile("\"(title|content)\":(\"(?:[^\"\\\\]|\\\\.)*\")");
        for (int i = 0; i < distractors; i++) {
            Matcher m = field.matcher(distractor(i));
            StringBuilder line = new StringBuilder("{");
            while (m.find()) {
                line.append(line.length() > 1 ? "," : "").append('"').append(m.group(1)).append("\":").append(m.group(2));
            }
            lines.add(line.append('}').toString());
        }
        for (Lesson l : lessons) {
            for (String q : l.questions()) {
                lines.add("{\"question\":" + quote(q) + ",\"answer\":" + quote(l.key()) + "}");
            }
        }
        Files.write(file, lines);
        System.out.printf("wrote %d lessons, %d distractors and %d questions to %s%n", lessons.size(), distractors,
                lines.size() - lessons.size() - distractors, file);
    }

    static String distractor(int i) {
        Random r = new Random(i * 104729L + 7);
        String situation = SITUATIONS[r.nextInt(SITUATIONS.length)];
        String component = COMPONENTS[r.nextInt(COMPONENTS.length)];
        String action = ACTIONS[r.nextInt(ACTIONS.length)];
        String second = ACTIONS[r.nextInt(ACTIONS.length)];
        String language = LANGUAGES[r.nextInt(LANGUAGES.length)];
        String verdict = VERDICTS[r.nextInt(VERDICTS.length)];
        boolean failure = verdict.contains("worse") || verdict.contains("not");
        String title = switch (r.nextInt(4)) {
            case 0 -> "In the " + component + ", " + situation;
            case 1 -> capitalise(action) + " for the " + component;
            case 2 -> capitalise(situation) + " (" + component + ")";
            default -> "Note on the " + component + " when " + situation;
        } + " #" + i;
        String content = switch (r.nextInt(3)) {
            case 0 -> "In the " + component + " (" + language + ") " + situation + ". We " + action + ", then "
                    + second + "; " + verdict + ".";
            case 1 -> "Seen in the " + language + " " + component + ": " + situation + ". What we did: " + action
                    + ". Outcome: " + verdict + ".";
            default -> "When " + situation + " in the " + component + ", we " + action + " and " + second + ". "
                    + capitalise(verdict) + ".";
        };
        return json(title, content, failure ? "failure" : "success", List.of("language:" + language));
    }

    static String capitalise(String s) {
        return Character.toUpperCase(s.charAt(0)) + s.substring(1);
    }

    static String json(String title, String content, String outcome, List<String> tags) {
        StringBuilder b = new StringBuilder("{\"title\":").append(quote(title)).append(",\"content\":")
                .append(quote(content)).append(",\"outcome\":\"").append(outcome).append("\",\"tags\":[");
        for (int i = 0; i < tags.size(); i++) {
            b.append(i > 0 ? "," : "").append(quote(tags.get(i)));
        }
        return b.append("]}").toString();
    }

    static String quote(String s) {
        StringBuilder b = new StringBuilder("\"");
        for (char c : s.toCharArray()) {
            switch (c) {
                case '"' -> b.append("\\\"");
                case '\\' -> b.append("\\\\");
                default -> b.append(c);
            }
        }
        return b.append('"').toString();
    }

    static void load(String base, String auth, String project, List<Lesson> lessons, int distractors, int clients)
            throws Exception {
        URI uri = URI.create(base + "/v1/projects/" + project + "/memories");
        List<String> bodies = new ArrayList<>(distractors + lessons.size());
        // The lessons are spread among the distractors, as memories of a real project arrive over time.
        int every = Math.max(1, distractors / Math.max(1, lessons.size()));
        int lesson = 0;
        for (int i = 0; i < distractors; i++) {
            if (i % every == 0 && lesson < lessons.size()) {
                Lesson l = lessons.get(lesson++);
                bodies.add(json(l.title(), l.content(), "success", l.tags()));
            }
            bodies.add(distractor(i));
        }
        while (lesson < lessons.size()) {
            Lesson l = lessons.get(lesson++);
            bodies.add(json(l.title(), l.content(), "success", l.tags()));
        }
        AtomicInteger next = new AtomicInteger();
        AtomicLong failures = new AtomicLong();
        CountDownLatch done = new CountDownLatch(clients);
        long start = System.nanoTime();
        for (int c = 0; c < clients; c++) {
            new Thread(() -> {
                HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
                int i;
                while ((i = next.getAndIncrement()) < bodies.size()) {
                    try {
                        HttpResponse<String> response = http.send(HttpRequest.newBuilder(uri)
                                .header("Authorization", auth).header("Content-Type", "application/json")
                                .POST(HttpRequest.BodyPublishers.ofString(bodies.get(i))).build(),
                                HttpResponse.BodyHandlers.ofString());
                        if (response.statusCode() != 201) {
                            failures.incrementAndGet();
                            System.err.println(response.statusCode() + " " + response.body());
                        }
                    } catch (Exception e) {
                        failures.incrementAndGet();
                    }
                }
                done.countDown();
            }).start();
        }
        done.await();
        double seconds = (System.nanoTime() - start) / 1e9;
        System.out.printf("loaded %d lessons and %d distractors in %.0f s (%.0f/s), %d failures%n", lessons.size(),
                distractors, seconds, bodies.size() / seconds, failures.get());
    }

    static final Pattern TITLE = Pattern.compile("\"title\"\\s*:\\s*\"((?:[^\"\\\\]|\\\\.)*)\"");

    static void measure(String base, String auth, String project, List<Lesson> lessons, boolean misses)
            throws Exception {
        URI uri = URI.create(base + "/v1/projects/" + project + "/memories/search");
        HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
        // Warm-up: the embedder's and the database's first calls are slower than any later one.
        for (int i = 0; i < 20; i++) {
            search(http, uri, auth, lessons.get(i % lessons.size()).questions().get(0));
        }
        int questions = 0, first = 0, top5 = 0;
        double reciprocal = 0, ndcg = 0;
        List<Long> took = new ArrayList<>();
        List<String> missed = new ArrayList<>();
        for (Lesson lesson : lessons) {
            for (String question : lesson.questions()) {
                long t0 = System.nanoTime();
                List<String> titles = search(http, uri, auth, question);
                took.add(System.nanoTime() - t0);
                int rank = titles.indexOf(lesson.title()) + 1;
                questions++;
                if (rank == 1) {
                    first++;
                }
                if (rank >= 1 && rank <= 5) {
                    top5++;
                }
                if (rank >= 1) {
                    reciprocal += 1.0 / rank;
                    ndcg += 1.0 / (Math.log(rank + 1) / Math.log(2));
                }
                if (rank != 1) {
                    missed.add(String.format("%-26s rank %-3s %s%n%29s first: %s", lesson.key(),
                            rank == 0 ? ">" + K : String.valueOf(rank), question, "",
                            titles.isEmpty() ? "(nothing)" : titles.get(0)));
                }
            }
        }
        long[] sorted = took.stream().mapToLong(Long::longValue).sorted().toArray();
        System.out.printf("%d lessons, %d questions, project %s%n", lessons.size(), questions, project);
        System.out.printf("recall@1 %.3f  recall@5 %.3f  MRR@%d %.3f  nDCG@%d %.3f%n", first / (double) questions,
                top5 / (double) questions, K, reciprocal / questions, K, ndcg / questions);
        System.out.printf("search latency (client, sequential): p50 %.1f ms  p95 %.1f ms  max %.1f ms%n",
                sorted[sorted.length / 2] / 1e6, sorted[(int) (sorted.length * 0.95)] / 1e6,
                sorted[sorted.length - 1] / 1e6);
        if (misses) {
            missed.forEach(System.out::println);
        }
    }

    static List<String> search(HttpClient http, URI uri, String auth, String question) throws Exception {
        HttpResponse<String> response = http.send(HttpRequest.newBuilder(uri)
                .header("Authorization", auth).header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString("{\"query\":" + quote(question) + ",\"limit\":" + K + "}"))
                .build(), HttpResponse.BodyHandlers.ofString());
        if (response.statusCode() != 200) {
            throw new IllegalStateException("search answered " + response.statusCode() + ": " + response.body());
        }
        Set<String> titles = new LinkedHashSet<>();
        Matcher m = TITLE.matcher(response.body());
        while (m.find()) {
            titles.add(m.group(1).replace("\\\"", "\"").replace("\\\\", "\\"));
        }
        return new ArrayList<>(titles);
    }
}
