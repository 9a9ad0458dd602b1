package dev.hindsight.evaluation.summary;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Summarizes reasoning without a model ({@code extractive.v1}): picks the sentence that carries the decision and the
 * one that gives its reason, so every message and session has a summary even when no model is configured or it fails,
 * and the same input always gives the same summary.
 *
 * <p>A sentence scores for decision cues (actions such as buy, sold, trim, fixed weigh 2; decide, recommend, choose,
 * conclude 1.5; will, should, plan, going to, wait 1; hold, keep, no trades 1) and reason cues (because, since,
 * due to, given, driven by, … weigh 1; market evidence such as demand, results, volatility 0.5), and loses for
 * chit-chat and questions. The strongest decision sentence is kept (its reasons break ties, then the later
 * sentence wins); when it gives no explicit reason, the best reason sentence (an explicit cue or two pieces of
 * evidence) joins it, and the two are returned in their original order.
 */
public final class ExtractiveSummarizer {

    public static final String ID = "extractive.v1";

    /** Longest summary returned; longer ones are cut at a word boundary and end with an ellipsis. */
    public static final int MAX_CHARS = 280;

    /** Actions listed by name in a session summary before the rest become "+N more". */
    static final int MAX_ACTIONS_LISTED = 3;

    private static final int MAX_TITLE_CHARS = 120;

    private static final Pattern TRADE_ACTIONS = cues(
            "buy", "buys", "buying", "bought", "sell", "sells", "selling", "sold", "trim\\w*", "rebalanc\\w*",
            "allocat\\w*", "purchas\\w*", "short(ed|ing)?", "exit(ed|ing)?", "increas\\w*", "reduc\\w*",
            "invest\\w*", "add(ed|ing)? to",
            "fix(ed|es|ing)?", "patch(ed|ing)?", "revert\\w*", "replac\\w*", "changed", "changing");
    /** Holding on is a decision too, but these verbs also say "demand keeps growing", so they weigh less. */
    private static final Pattern MAINTAINS = cues(
            "hold", "holds", "holding", "held", "keep", "keeps", "keeping", "kept", "maintain\\w*", "stay(ed)? in",
            "no trades?", "no changes?", "stay(ed)? out");
    private static final Pattern DECISION_VERBS = cues(
            "decid\\w*", "decision", "recommend\\w*", "choos\\w*", "chose", "chosen", "conclud\\w*", "conclusion",
            "opt(ed)? for", "settled on", "go with");
    private static final Pattern PLANS = cues(
            "will", "i'll", "we'll", "should", "plan\\w*", "going to", "therefore", "so i", "so we", "intend\\w*",
            "next step", "prefer\\w*", "wait");
    private static final Pattern REASONS = cues(
            "because", "since", "due to", "as a result", "given", "so that", "driven by", "reasons?", "thanks to",
            "on the back of", "owing to", "in order to", "based on", "amid", "which means", "in light of");
    private static final Pattern EVIDENCE = cues(
            "demand", "results", "earnings", "growth", "momentum", "risk", "volatility", "valuations?", "guidance",
            "trends?", "outlook", "strong", "weak", "data", "evidence", "shows", "indicates", "suggests", "signals?",
            "prices?", "support(s|ed)?", "favou?rs?", "rall(y|ied)", "drop(ped)?", "fell", "rose");
    private static final Pattern CHIT_CHAT = cues(
            "hello", "hi", "hey", "thanks", "thank you", "let me know", "happy to", "glad to",
            "great question", "i hope", "feel free", "as an ai", "no problem", "you're welcome");

    /** The identifier recorded with every summary this class writes. */
    public String id() {
        return ID;
    }

    /**
     * A 1–2 sentence summary of one message: its decision sentence and, when that gives no reason, its reason
     * sentence, in original order and at most {@link #MAX_CHARS} characters; "" for empty or blank content.
     */
    public String summarizeMessage(String content) {
        List<Scored> sentences = score(Sentences.split(content));
        if (sentences.isEmpty()) {
            return "";
        }
        if (sentences.size() == 1) {
            return cap(sentences.get(0).text);
        }
        Scored decision = decision(sentences);
        Scored reason = reasonFor(decision, sentences);
        if (reason == null) {
            return cap(decision.text);
        }
        Scored first = reason.index < decision.index ? reason : decision;
        Scored second = first == reason ? decision : reason;
        String both = terminated(first.text) + " " + terminated(second.text);
        // Two sentences that do not fit lose the reason rather than get cut mid-thought.
        return both.length() <= MAX_CHARS ? both : cap(decision.text);
    }

    /**
     * A 1–2 sentence summary of a session: what happened (the actions when known), then the producer's hint or the
     * key decision sentence over all assistant messages, then the outcome when known ("Outcome: success.").
     */
    public String summarizeSession(SessionDigest digest) {
        List<String> parts = new ArrayList<>();
        parts.add(whatHappened(digest));
        String second = digest.summaryHint() != null && !digest.summaryHint().isBlank()
                ? cap(digest.summaryHint().strip().replaceAll("\\s+", " "))
                : keySentence(digest.assistantMessages());
        if (!second.isEmpty()) {
            parts.add(terminated(second));
        }
        String outcome = digest.outcome() == null ? "" : digest.outcome().strip().toLowerCase(Locale.ROOT);
        if (!outcome.isEmpty() && !outcome.equals("unknown")) {
            parts.add("Outcome: " + outcome + ".");
        }
        return String.join(" ", parts);
    }

    private static String whatHappened(SessionDigest digest) {
        String kind = digest.kind() == null ? "" : digest.kind().strip().toLowerCase(Locale.ROOT);
        String title = title(digest.title());
        String subject = switch (kind) {
            case "trading" -> title == null ? "The trading session" : title;
            case "chat" -> title == null ? "The chat" : "The chat \"" + title + "\"";
            case "debug" -> title == null ? "The debugging session" : "Debugging \"" + title + "\"";
            default -> title == null ? "The session" : title;
        };
        List<String> actions = digest.actions().stream()
                .map(a -> a.strip().replaceAll("[.;,]+$", "").replaceAll("\\s+", " "))
                .filter(a -> !a.isEmpty())
                .toList();
        int messages = (int) digest.assistantMessages().stream().filter(m -> !m.isBlank()).count();
        if (actions.isEmpty()) {
            String over = messages == 0 ? "" : " over " + count(messages, "assistant message");
            String had = messages == 0 ? "no assistant messages" : count(messages, "assistant message");
            return kind.equals("trading")
                    ? subject + " made no recorded trades" + over + "."
                    : subject + " had " + had + ".";
        }
        List<String> listed = new ArrayList<>(actions.subList(0, Math.min(MAX_ACTIONS_LISTED, actions.size())));
        if (actions.size() > MAX_ACTIONS_LISTED) {
            listed.add("+" + (actions.size() - MAX_ACTIONS_LISTED) + " more");
        }
        String did = kind.equals("trading")
                ? "traded " + (actions.size() == 1 ? "once" : actions.size() + " times")
                : "took " + count(actions.size(), "action");
        return subject + " " + did + ": " + String.join(", ", listed) + ".";
    }

    /** The decision sentence over all assistant messages, as one sentence; "" when there are none. */
    private static String keySentence(List<String> messages) {
        List<String> sentences = new ArrayList<>();
        for (String message : messages) {
            sentences.addAll(Sentences.split(message));
        }
        List<Scored> scored = score(sentences);
        return scored.isEmpty() ? "" : cap(decision(scored).text);
    }

    private static String title(String title) {
        if (title == null || title.isBlank()) {
            return null;
        }
        String t = title.strip().replaceAll("\\s+", " ").replaceAll("[.!?]+$", "");
        return t.length() <= MAX_TITLE_CHARS ? t : cut(t, MAX_TITLE_CHARS);
    }

    /** The sentence that carries the decision; without decision cues, the best reason, else the first real sentence. */
    private static Scored decision(List<Scored> sentences) {
        Scored best = null;
        for (Scored s : sentences) {
            // The strongest decision wins, its reasons only break ties: "demand keeps growing because of data" must
            // not outrank "I will buy 10 NVDA". Remaining ties go to the later sentence, as a message states its
            // conclusion after its deliberation. A decision cue inside chit-chat ("let me know if I should buy
            // more") does not make a decision.
            double strength = s.decision + s.penalty;
            if (strength <= 0) {
                continue;
            }
            double bestStrength = best == null ? 0 : best.decision + best.penalty;
            if (best == null || strength > bestStrength || strength == bestStrength && s.reason >= best.reason) {
                best = s;
            }
        }
        if (best != null) {
            return best;
        }
        for (Scored s : sentences) {
            if (s.reason > 0 && s.penalty == 0 && (best == null || s.total() > best.total())) {
                best = s;
            }
        }
        if (best != null) {
            return best;
        }
        // No cue anywhere: the lead sentence, skipping headings and chit-chat when there is anything else.
        return sentences.stream().filter(s -> !s.headingLike() && s.penalty == 0).findFirst()
                .orElse(sentences.get(0));
    }

    /** The sentence giving the reason for {@code decision}, or null when it gives its own or none is found. */
    private static Scored reasonFor(Scored decision, List<Scored> sentences) {
        if (decision.explicitReason > 0) {
            return null;
        }
        Scored best = null;
        for (Scored s : sentences) {
            // One market word ("prices") is not yet a reason; an explicit cue or two pieces of evidence are.
            if (s == decision || s.reason < 1.0 || s.reason + s.penalty <= 0) {
                continue;
            }
            double weight = s.explicitReason * 2 + s.evidence + s.penalty;
            double bestWeight = best == null ? 0 : best.explicitReason * 2 + best.evidence + best.penalty;
            // Ties go to the sentence nearest the decision: a reason is usually given right beside it.
            if (best == null || weight > bestWeight || weight == bestWeight
                    && Math.abs(s.index - decision.index) < Math.abs(best.index - decision.index)) {
                best = s;
            }
        }
        return best;
    }

    private static List<Scored> score(List<String> sentences) {
        List<Scored> scored = new ArrayList<>();
        for (int i = 0; i < sentences.size(); i++) {
            scored.add(new Scored(i, sentences.get(i)));
        }
        return scored;
    }

    private static String cap(String text) {
        return text.length() <= MAX_CHARS ? text : cut(text, MAX_CHARS);
    }

    /** {@code text} cut to at most {@code max} characters at a word boundary, ending with "…". */
    private static String cut(String text, int max) {
        int limit = max - 1;
        int end = limit;
        while (end > 0 && !Character.isWhitespace(text.charAt(end))) {
            end--;
        }
        if (end < limit / 2) {
            // One enormous word (a URL, a hash): cut inside it rather than return almost nothing.
            end = Character.isHighSurrogate(text.charAt(limit - 1)) ? limit - 1 : limit;
        }
        return text.substring(0, end).stripTrailing().replaceAll("[\\s,;:]+$", "") + "…";
    }

    private static String terminated(String sentence) {
        return ".!?…。！？\"'”)".indexOf(sentence.charAt(sentence.length() - 1)) >= 0 ? sentence : sentence + ".";
    }

    private static String count(int n, String noun) {
        return n + " " + noun + (n == 1 ? "" : "s");
    }

    private static Pattern cues(String... cues) {
        return Pattern.compile("(?<![\\w'])(" + String.join("|", cues) + ")(?![\\w'])");
    }

    private static int hits(Pattern pattern, String text, int max) {
        Matcher m = pattern.matcher(text);
        Set<String> distinct = new HashSet<>();
        while (m.find() && distinct.size() < max) {
            distinct.add(m.group(1));
        }
        return distinct.size();
    }

    /** One sentence with its cue scores. */
    private static final class Scored {
        final int index;
        final String text;
        final double decision;
        final double explicitReason;
        final double evidence;
        final double reason;
        final double penalty;

        Scored(int index, String text) {
            this.index = index;
            this.text = text;
            String lower = text.toLowerCase(Locale.ROOT);
            this.decision = 2.0 * hits(TRADE_ACTIONS, lower, 2) + 1.5 * hits(DECISION_VERBS, lower, 1)
                    + hits(PLANS, lower, 1) + hits(MAINTAINS, lower, 1);
            this.explicitReason = hits(REASONS, lower, 2);
            this.evidence = 0.5 * hits(EVIDENCE, lower, 2);
            this.reason = explicitReason + evidence;
            double p = 0;
            if (CHIT_CHAT.matcher(lower).find()) {
                p -= 3;
            }
            if (text.endsWith("?")) {
                p -= 1;
            }
            if (words() < 3) {
                p -= 1;
            }
            this.penalty = p;
        }

        double total() {
            return decision + reason + penalty;
        }

        int words() {
            return text.split("\\s+").length;
        }

        /** A title rather than a statement: short and without closing punctuation ("Key intermediate steps"). */
        boolean headingLike() {
            return words() <= 5 && ".!?…。！？".indexOf(text.charAt(text.length() - 1)) < 0;
        }
    }
}
