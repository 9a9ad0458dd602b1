package dev.hindsight.memorymodel.embedding;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.hindsight.memorymodel.search.Neighbour;
import dev.hindsight.memorymodel.search.SearchRule;
import dev.langchain4j.model.embedding.onnx.PoolingMode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import org.junit.jupiter.api.Test;

/**
 * Which embedder finds the right lesson (issue #26), offline: the retrieval benchmark's corpus
 * ({@code java bench/RetrievalQuality.java export FILE}) embedded by each candidate, every question ranked against
 * every memory by exact cosine similarity (no index, no confidence filter), plainly and as the service ranks
 * (relevance: the corpus's centre taken from the query, {@link SearchRule#relevanceQuery}), and scored as the online
 * benchmark scores.
 * It separates what the embedder can do from what the index and the ranking do. A benchmark, run by hand (its name
 * keeps it out of the build's tests):
 *
 * <pre>
 * java bench/RetrievalQuality.java export /tmp/rq-corpus.jsonl 5000
 * mvn -o -q -pl memory-model test -Dtest=EmbedderRetrievalBenchmark -Dhindsight.bench.corpus=/tmp/rq-corpus.jsonl
 * </pre>
 */
class EmbedderRetrievalBenchmark {

    /** bge v1.5's instruction for a short query searching longer passages (its model card). */
    private static final String BGE_QUERY = "Represent this sentence for searching relevant passages: ";

    record Doc(String key, String title, String content, String text) {
    }

    record Question(String text, String answer) {
    }

    @Test
    void compareEmbedders() throws Exception {
        Path corpus = Path.of(System.getProperty("hindsight.bench.corpus", "/tmp/rq-corpus.jsonl"));
        ObjectMapper json = new ObjectMapper();
        List<Doc> docs = new ArrayList<>();
        List<Question> questions = new ArrayList<>();
        for (String line : Files.readAllLines(corpus)) {
            JsonNode n = json.readTree(line);
            if (n.has("question")) {
                questions.add(new Question(n.get("question").asText(), n.get("answer").asText()));
            } else {
                String title = n.get("title").asText();
                String content = n.get("content").asText();
                docs.add(new Doc(n.path("lesson").asText(null), title, content,
                        SearchRule.embeddingText(title, null, content)));
            }
        }
        System.out.printf("%d memories (%d lessons), %d questions%n", docs.size(),
                docs.stream().filter(d -> d.key() != null).count(), questions.size());

        List<String> only = List.of(System.getProperty("hindsight.bench.embedders", "minilm,bge,e5,minilm-parts")
                .split(","));
        if (only.contains("minilm")) {
            OnnxEmbedder minilm = OnnxEmbedder.load(OnnxEmbedder.MINILM);
            score("all-MiniLM-L6-v2 (q)", docs, questions, minilm::embed, minilm::embed);
        }
        if (only.contains("minilm-hubs")) {
            scoreHubs(docs, questions, OnnxEmbedder.load(OnnxEmbedder.MINILM)::embed);
        }
        if (only.contains("minilm-parts")) {
            scoreParts(docs, questions, OnnxEmbedder.load(OnnxEmbedder.MINILM)::embed);
        }
        if (only.contains("bge")) {
            OnnxEmbedder bge = OnnxEmbedder.load(OnnxEmbedder.BGE_SMALL);
            Function<String, float[]> bgeEmbed = bge::embed;
            score("bge-small-en-v1.5 (q), no query instruction", docs, questions, bgeEmbed, bgeEmbed);
            score("bge-small-en-v1.5 (q), query instruction", docs, questions, bgeEmbed,
                    t -> bgeEmbed.apply(BGE_QUERY + t));
        }
        if (only.contains("e5")) {
            // e5 was trained with "query: " and "passage: " prefixes, and expects them (its model card).
            OnnxEmbedder e5 = new OnnxEmbedder("e5-small-v2-q",
                    dev.langchain4j.model.embedding.onnx.AbstractInProcessEmbeddingModel.class,
                    "/e5-small-v2-q.onnx", "/e5-small-v2-q-tokenizer.json", PoolingMode.MEAN);
            score("e5-small-v2 (q), query:/passage: prefixes", docs, questions, t -> e5.embed("passage: " + t),
                    t -> e5.embed("query: " + t));
        }
    }

    /**
     * Several vectors per memory, offline: one for the whole text as shipped, one for the title and one per sentence
     * of the content; a memory scores the mean of its whole-text similarity and its best part's. A question usually
     * names one symptom, which one sentence of the right lesson says in other words.
     */
    private static void scoreParts(List<Doc> docs, List<Question> questions, Function<String, float[]> embed) {
        List<float[]> whole = new ArrayList<>();
        List<List<float[]>> parts = new ArrayList<>();
        for (Doc d : docs) {
            whole.add(normalise(embed.apply(d.text())));
            List<float[]> p = new ArrayList<>();
            p.add(normalise(embed.apply(d.title())));
            for (String sentence : d.content().split("(?<=[.;:!?])\\s+")) {
                if (sentence.length() > 3) {
                    p.add(normalise(embed.apply(sentence)));
                }
            }
            parts.add(p);
        }
        Metrics m = new Metrics();
        for (Question question : questions) {
            float[] q = normalise(embed.apply(question.text()));
            double[] scores = new double[docs.size()];
            for (int i = 0; i < docs.size(); i++) {
                double best = -1;
                for (float[] part : parts.get(i)) {
                    best = Math.max(best, dot(q, part));
                }
                scores[i] = 0.5 * dot(q, whole.get(i)) + 0.5 * best;
            }
            m.add(rankAmong(scores, answerIndex(docs, question)));
        }
        m.print("all-MiniLM-L6-v2 (q), whole text + best part", questions.size());
    }

    /**
     * Hubness, offline ({@code -Dhindsight.bench.embedders=minilm-hubs}): a memory close to many other memories of
     * the project (a generic one) is close to many questions too, and crowds the answers. A memory's hubness is its
     * mean cosine to its k nearest memories, both taken minus the project's centre and normalised; a memory scores its
     * relevance minus alpha times its hubness (after CSLS, cross-domain similarity local scaling). The pool re-scores
     * only the most relevant memories, as the service re-scores the candidates an index walk hands over. "Pool
     * hubness" needs no stored number: each candidate's hubness is taken among the pool's own members.
     */
    private static void scoreHubs(List<Doc> docs, List<Question> questions, Function<String, float[]> embed) {
        List<float[]> vectors = docs.stream().map(d -> normalise(embed.apply(d.text()))).toList();
        SearchRule.Centre centre = centreOf(vectors);
        List<float[]> centred = vectors.stream().map(v -> normalise(SearchRule.relevanceQuery(v, centre))).toList();
        // Per question, once: every memory's relevance, the answer's index, and the memories most relevant first.
        int n = docs.size();
        double[][] relevance = new double[questions.size()][n];
        int[] answers = new int[questions.size()];
        Integer[][] orders = new Integer[questions.size()][];
        for (int qi = 0; qi < questions.size(); qi++) {
            // Normalised, as pgvector's cosine is: relevance is on the scale the service's hubness weight applies to.
            float[] q = normalise(SearchRule.relevanceQuery(normalise(embed.apply(questions.get(qi).text())), centre));
            double[] r = relevance[qi];
            for (int i = 0; i < n; i++) {
                r[i] = dot(q, vectors.get(i));
            }
            answers[qi] = answerIndex(docs, questions.get(qi));
            Integer[] order = new Integer[n];
            for (int i = 0; i < n; i++) {
                order[i] = i;
            }
            java.util.Arrays.sort(order, (a, b) -> Double.compare(r[b], r[a]));
            orders[qi] = order;
        }
        // Hubness within the pool only: each candidate's mean centred cosine to its 10 nearest fellows in the pool; only
        // the pool's most relevant "chosen" may answer (the service: a pool of 100, answers from the first 40).
        for (int[] setting : new int[][] {{40, 40}, {100, 100}, {100, 40}}) {
            int pool = Math.min(setting[0], n);
            int chosen = Math.min(setting[1], pool);
            for (double alpha : new double[] {0.25, 0.5, 0.75, 1.0}) {
                Metrics m = new Metrics();
                int deep = 0;
                for (int qi = 0; qi < questions.size(); qi++) {
                    Integer[] order = orders[qi];
                    int at = -1;
                    // The service's own measure, over the pool as the index would hand it over.
                    List<Neighbour> near = new ArrayList<>(pool);
                    for (int x = 0; x < pool; x++) {
                        near.add(new Neighbour(null, relevance[qi][order[x]], vectors.get(order[x])));
                    }
                    double[] hubness = SearchRule.hubness(near, centre);
                    double[] score = new double[pool];
                    for (int x = 0; x < pool; x++) {
                        score[x] = x >= chosen ? Double.NEGATIVE_INFINITY
                                : relevance[qi][order[x]] - alpha * hubness[x];
                        if (order[x] == answers[qi]) {
                            at = x;
                        }
                    }
                    // Results shown from deep in the pool: what a memory with few near memories there climbs to.
                    for (int x = 40; x < chosen; x++) {
                        deep += rankAmong(score, x) <= 5 ? 1 : 0;
                    }
                    m.add(at < 0 || at >= chosen ? OUTSIDE : rankAmong(score, at));
                }
                m.print("pool hubness, pool " + pool + ", answers from " + chosen + ", alpha " + alpha
                        + " (top 5 from beyond 40: " + deep + ")", questions.size());
            }
        }
        // Hubness over the whole corpus: each memory's mean centred cosine to its k nearest memories.
        double[][] sorted = new double[n][];
        for (int i = 0; i < n; i++) {
            double[] sims = new double[n];
            for (int j = 0; j < n; j++) {
                sims[j] = i == j ? -2 : dot(centred.get(i), centred.get(j));
            }
            java.util.Arrays.sort(sims);
            sorted[i] = sims;
        }
        for (int k : new int[] {5, 10, 20}) {
            double[] hub = new double[n];
            for (int i = 0; i < n; i++) {
                hub[i] = meanOfLargest(sorted[i], k);
            }
            for (double alpha : new double[] {0.5, 0.75}) {
                for (int pool : new int[] {40, 100, Integer.MAX_VALUE}) {
                    Metrics m = new Metrics();
                    for (int qi = 0; qi < questions.size(); qi++) {
                        double[] r = relevance[qi];
                        int answer = answers[qi];
                        // Only the pool's most relevant memories are re-scored, as an index walk would hand them over.
                        double floor = pool >= n ? Double.NEGATIVE_INFINITY : r[orders[qi][pool - 1]];
                        double[] scores = new double[n];
                        for (int i = 0; i < n; i++) {
                            scores[i] = r[i] >= floor ? r[i] - alpha * hub[i] : Double.NEGATIVE_INFINITY;
                        }
                        m.add(r[answer] < floor ? OUTSIDE : rankAmong(scores, answer));
                    }
                    m.print("hubness k " + k + ", alpha " + alpha + ", pool " + (pool > n ? "all" : pool),
                            questions.size());
                }
            }
        }
    }

    /** The index of {@code question}'s lesson among {@code docs}. */
    private static int answerIndex(List<Doc> docs, Question question) {
        for (int i = 0; i < docs.size(); i++) {
            if (question.answer().equals(docs.get(i).key())) {
                return i;
            }
        }
        throw new IllegalArgumentException("no lesson " + question.answer());
    }

    /** The corpus's centre: the mean of its (normalised) vectors, as the service averages a project's. */
    private static SearchRule.Centre centreOf(List<float[]> vectors) {
        float[] mean = new float[vectors.get(0).length];
        for (float[] v : vectors) {
            for (int i = 0; i < mean.length; i++) {
                mean[i] += v[i] / vectors.size();
            }
        }
        return new SearchRule.Centre(mean, vectors.size());
    }

    /** The rank of a memory the pool did not hold: beyond every cut-off. */
    private static final int OUTSIDE = Integer.MAX_VALUE;

    /** 1 + how many others score higher than {@code answer}. */
    private static int rankAmong(double[] scores, int answer) {
        int rank = 1;
        for (int i = 0; i < scores.length; i++) {
            if (i != answer && scores[i] > scores[answer]) {
                rank++;
            }
        }
        return rank;
    }

    /** The mean of the {@code k} largest of {@code ascending}, which is sorted. */
    private static double meanOfLargest(double[] ascending, int k) {
        double sum = 0;
        for (int n = 1; n <= k; n++) {
            sum += ascending[ascending.length - n];
        }
        return sum / k;
    }

    private static final class Metrics {
        int first;
        int top5;
        /** In the 40 candidates the service re-ranks: the best any re-ranking of them could reach. */
        int top40;
        /** In a pool five times larger, as a re-ranker with a larger budget could take. */
        int top200;
        double reciprocal;
        double ndcg;

        void add(int rank) {
            first += rank == 1 ? 1 : 0;
            top5 += rank <= 5 ? 1 : 0;
            top40 += rank <= 40 ? 1 : 0;
            top200 += rank <= 200 ? 1 : 0;
            if (rank <= 10) {
                reciprocal += 1.0 / rank;
                ndcg += 1.0 / (Math.log(rank + 1) / Math.log(2));
            }
        }

        void print(String name, int n) {
            System.out.printf("%-46s recall@1 %.3f  recall@5 %.3f  MRR@10 %.3f  nDCG@10 %.3f  recall@40 %.3f"
                    + "  recall@200 %.3f%n",
                    name, first / (double) n, top5 / (double) n, reciprocal / n, ndcg / n, top40 / (double) n,
                    top200 / (double) n);
        }
    }

    private static void score(String name, List<Doc> docs, List<Question> questions, Function<String, float[]> passage,
            Function<String, float[]> query) {
        long t0 = System.nanoTime();
        List<float[]> vectors = docs.stream().map(d -> normalise(passage.apply(d.text()))).toList();
        double perDoc = (System.nanoTime() - t0) / 1e6 / docs.size();
        SearchRule.Centre centre = centreOf(vectors);
        Metrics plain = new Metrics();
        Metrics relevance = new Metrics();
        long q0 = System.nanoTime();
        for (Question question : questions) {
            float[] q = normalise(query.apply(question.text()));
            int answer = answerIndex(docs, question);
            plain.add(rank(vectors, q, answer));
            // As the service ranks: the cosine to the query minus the corpus's centre (vectors are normalised, so the
            // dot product orders as the cosine does).
            relevance.add(rank(vectors, SearchRule.relevanceQuery(q, centre), answer));
        }
        double perQuery = (System.nanoTime() - q0) / 1e6 / questions.size();
        plain.print(name, questions.size());
        relevance.print(name + ", relevance", questions.size());
        System.out.printf("%-46s (embed %.1f ms/memory, %.1f ms/question incl. exact scans)%n", "", perDoc, perQuery);
    }

    private static int rank(List<float[]> vectors, float[] q, int answer) {
        double target = dot(q, vectors.get(answer));
        int rank = 1;
        for (int i = 0; i < vectors.size(); i++) {
            if (i != answer && dot(q, vectors.get(i)) > target) {
                rank++;
            }
        }
        return rank;
    }

    private static float[] normalise(float[] v) {
        double norm = Math.sqrt(dot(v, v));
        float[] out = new float[v.length];
        for (int i = 0; i < v.length; i++) {
            out[i] = (float) (v[i] / norm);
        }
        return out;
    }

    private static double dot(float[] a, float[] b) {
        double sum = 0;
        for (int i = 0; i < a.length; i++) {
            sum += a[i] * b[i];
        }
        return sum;
    }
}
