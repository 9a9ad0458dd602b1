package dev.hindsight.platform.redact;

import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Replaces secrets in free text with {@code [REDACTED:<kind>]} and leaves everything around them as it was, so a
 * text keeps its meaning ("the token in {@code Authorization: Bearer [REDACTED:bearer-token]} had expired") without
 * carrying the credential.
 *
 * <p>What it finds, in this order (earlier rules win, later ones skip what is already redacted):
 * <ol>
 * <li>{@code private-key}: a whole PEM private key block, BEGIN line to END line, across lines or inside a JSON string
 * with {@code \n} escapes; a block cut off before its END line is redacted through its last base64 line;</li>
 * <li>{@code aws-access-key-id} (AKIA, ASIA and the other AWS id prefixes, 20 characters);
 * {@code aws-secret-access-key} (40 characters after {@code aws_secret_access_key}, {@code SecretAccessKey}, …);</li>
 * <li>{@code google-api-key} (AIza…), {@code github-token} (ghp_, gho_, ghu_, ghs_, ghr_, github_pat_),
 * {@code gitlab-token} (glpat-), {@code slack-token} (xoxa/b/p/r/s-), {@code slack-webhook} (the path of a
 * hooks.slack.com URL), {@code huggingface-token} (hf_), {@code npm-token} (npm_), {@code google-oauth-token}
 * (ya29.…), {@code azure-storage-key} (AccountKey= and SharedAccessKey= of a connection string),
 * {@code azure-sas-signature} (the sig= of a shared access signature), {@code stripe-key} (sk_/rk_ live or test),
 * {@code anthropic-key} (sk-ant-…), {@code openai-key} (sk-…, sk-proj-…, with at least one digit);</li>
 * <li>{@code bearer-token} / {@code basic-auth}: the credential after {@code Authorization: Bearer|Basic|Token}, and
 * after a bare {@code Bearer} when it is at least 20 characters long and has a digit;</li>
 * <li>{@code jwt}: three base64url segments, the first starting {@code eyJ};</li>
 * <li>{@code url-password}: the password of {@code scheme://user:password@host}, keeping scheme, user and host;</li>
 * <li>{@code api-key}, {@code client-secret}, {@code secret}, {@code token}, {@code password}: the value assigned to a
 * key whose name ends in api_key/apikey/api-key, client_secret, secret, token, password or passwd
 * ({@code GITHUB_TOKEN=…}, {@code db.password: …}, {@code "apiKey": "…"}, {@code token := "…"}).</li>
 * </ol>
 *
 * <p>Assignments are where ordinary text would otherwise be redacted, so they skip what is evidently not a
 * credential: a reference ({@code ${DB_PASSWORD}}, {@code $TOKEN}, {@code <your-token>}, {@code {{ secret }}}), code
 * ({@code token = generateToken()}, {@code password = settings.DB_PASSWORD}), a placeholder ({@code ********},
 * {@code null}, {@code true}, {@code none}), unquoted values too short to be a credential (under 8 characters, 4
 * for passwords), and prose ("Forgot password: click the link": a plain word after a colon, with more words after
 * it on the line; the same word at the end of a YAML line, or after {@code =}, is redacted). Prose ("a token bucket",
 * "the password reset flow"), commit hashes, UUIDs, paths and base64 without a key name are left alone: no rule
 * matches them.
 *
 * <p>Linear time: every pattern is tried only where one of its triggers starts and has only bounded or possessive
 * quantifiers and bounded lookbehinds, so no input can make a rule backtrack more than a constant amount per position;
 * the PEM rule is a scan, not a regular expression, because "from BEGIN to END" as a lazy regex is quadratic on many
 * BEGINs without an END. Idempotent: scrubbing scrubbed text changes nothing. Thread-safe: the rules are immutable.
 */
public final class SecretScrubber {

    private static final String MARKER = "[REDACTED:";

    /** Values an assignment may carry that are placeholders, not credentials. */
    private static final Set<String> PLACEHOLDERS = Set.of(
            "null", "nil", "none", "true", "false", "undefined", "empty", "string", "required", "optional", "hidden");

    private static final Pattern DOTTED_IDENTIFIER = Pattern.compile("(?:[A-Za-z_][A-Za-z0-9_]{0,64}\\.){1,8}"
            + "[A-Za-z_][A-Za-z0-9_]{0,64}");

    /** For rules whose pattern alone identifies a secret: a prefix such as ghp_ or AKIA cannot match a marker. */
    private static final Acceptance ALWAYS = (text, match) -> true;

    private static final List<Guarded> RULES = List.of(
            when(new PemRule(), "-----begin"),
            when(new RegexRule("(?<![A-Za-z0-9])(?:AKIA|ASIA|AGPA|AIDA|AROA|AIPA|ANPA|ANVA|A3T[A-Z0-9])[A-Z0-9]{16}"
                    + "(?![A-Za-z0-9])", 0, match -> "aws-access-key-id", ALWAYS),
                    "akia", "asia", "agpa", "aida", "aroa", "aipa", "anpa", "anva", "a3t"),
            when(new RegexRule("(?i)(?<![A-Za-z0-9])"
                    + "(?:aws[_-]?secret[_-]?(?:access[_-]?)?key|secret[_-]?access[_-]?key)"
                    + "[\"']?[ \\t]{0,5}(?::=|=>|[:=])[ \\t]{0,5}[\"']?([A-Za-z0-9/+=]{40})(?![A-Za-z0-9/+=])",
                    1, match -> "aws-secret-access-key", ALWAYS), "aws", "secret"),
            when(new RegexRule("(?<![A-Za-z0-9_-])AIza[0-9A-Za-z_-]{35}(?![0-9A-Za-z_-])", 0,
                    match -> "google-api-key", ALWAYS), "aiza"),
            when(new RegexRule("(?<![A-Za-z0-9_])(?:gh[pousr]_[A-Za-z0-9]{36,255}+|github_pat_[A-Za-z0-9_]{22,255}+)",
                    0,
                    match -> "github-token", ALWAYS), "ghp_", "gho_", "ghu_", "ghs_", "ghr_", "github_pat_"),
            when(new RegexRule("(?<![A-Za-z0-9_-])glpat-[A-Za-z0-9_-]{20,255}+", 0,
                    match -> "gitlab-token", ALWAYS), "glpat-"),
            when(new RegexRule("(?<![A-Za-z0-9])xox[abprs]-[A-Za-z0-9-]{10,255}+", 0,
                    match -> "slack-token", ALWAYS), "xox"),
            when(new RegexRule("(?i)hooks\\.slack\\.com/(?:services|workflows)/([A-Za-z0-9/_-]{20,255}+)", 1,
                    match -> "slack-webhook", ALWAYS), "hooks.slack.com"),
            when(new RegexRule("(?<![A-Za-z0-9_-])hf_[A-Za-z0-9]{30,255}+", 0,
                    match -> "huggingface-token", ALWAYS), "hf_"),
            when(new RegexRule("(?<![A-Za-z0-9_-])npm_[A-Za-z0-9]{36,255}+", 0,
                    match -> "npm-token", ALWAYS), "npm_"),
            when(new RegexRule("(?<![A-Za-z0-9_-])ya29\\.[A-Za-z0-9_-]{20,4096}+", 0,
                    match -> "google-oauth-token", ALWAYS), "ya29."),
            when(new RegexRule("(?i)(?<![A-Za-z0-9])(?:AccountKey|SharedAccessKey)[ \\t]{0,5}=[ \\t]{0,5}"
                    + "([A-Za-z0-9+/]{20,512}+={0,2})", 1, match -> "azure-storage-key", ALWAYS),
                    "accountkey", "sharedaccesskey"),
            when(new RegexRule("(?<![A-Za-z0-9_])sig=([A-Za-z0-9%+/_-]{20,512}+)", 1,
                    match -> "azure-sas-signature", (text, match) -> notAReference(match.group(1))), "sig="),
            when(new RegexRule("(?<![A-Za-z0-9])(?:sk|rk)_(?:live|test)_[A-Za-z0-9]{16,255}+", 0,
                    match -> "stripe-key", ALWAYS), "sk_", "rk_"),
            when(new RegexRule("(?<![A-Za-z0-9_-])sk-ant-[A-Za-z0-9_-]{20,255}+", 0,
                    match -> "anthropic-key", ALWAYS), "sk-ant-"),
            when(new RegexRule("(?<![A-Za-z0-9_-])sk-[A-Za-z0-9_-]{20,255}+", 0,
                    match -> "openai-key", (text, match) -> hasDigit(match.group())), "sk-"),
            when(new RegexRule("(?i)(?<![A-Za-z0-9_-])authorization[\"']?[ \\t]{0,5}[:=][ \\t]{0,5}[\"']?[ \\t]{0,5}"
                    + "(bearer|basic|token|bot)[ \\t]{1,5}([^\\s\"',;]{1,4096}+)", 2,
                    match -> match.group(1).equalsIgnoreCase("basic") ? "basic-auth" : "bearer-token",
                    (text, match) -> notAReference(match.group(2))), "authorization"),
            when(new RegexRule("(?<![A-Za-z0-9_-])eyJ[A-Za-z0-9_-]{4,}+\\.[A-Za-z0-9_-]{4,}+\\.[A-Za-z0-9_-]*+", 0,
                    match -> "jwt", ALWAYS), "eyj"),
            when(new RegexRule("(?<![A-Za-z0-9_-])[Bb]earer[ \\t]{1,5}([A-Za-z0-9._~+/-]{20,4096}+=*+)", 1,
                    match -> "bearer-token", (text, match) -> hasDigit(match.group(1))), "bearer"),
            // Starts at "://", the scheme checked behind it: every rule's match starts at one of its triggers.
            when(new RegexRule("://(?<=(?<![A-Za-z0-9+.-])[A-Za-z][A-Za-z0-9+.-]{0,30}://)"
                    + "[^\\s:/@?#\\[\\]\"'<>]{0,256}+:"
                    + "([^\\s/@?#\"'<>]{1,256}+)@", 1,
                    match -> "url-password", (text, match) -> notAReference(match.group(1))), "://"),
            // The key word ends a key name of at most 40 more characters: said by a lookbehind, so that the match
            // starts at the key word, one of the rule's triggers.
            when(new RegexRule("(?i)(?<![A-Za-z0-9_.-]{41})"
                    + "(?<key>api[_-]?key|client[_-]?secret|secret|token|password|passwd)(?:[_-]?key)?(?![A-Za-z0-9])"
                    + "[\"']?[ \\t]{0,5}(?<sep>:=|=>|[:=])[ \\t]{0,5}"
                    + "(?:\"(?<dq>(?:[^\"\\\\\\r\\n]|\\\\.){1,512}+)\""
                    + "|'(?<sq>(?:[^'\\\\\\r\\n]|\\\\.){1,512}+)'"
                    + "|(?<bare>[^\\s\"'`,;&()\\[\\]{}<>]{1,512}+))",
                    -1, SecretScrubber::assignmentKind, SecretScrubber::isAssignedSecret),
                    "api", "client", "secret", "token", "passw"));

    private static final TriggerIndex TRIGGERS = new TriggerIndex(RULES);

    /** A scrubber with the built-in rules; it holds no state, so one instance can be shared by every thread. */
    public SecretScrubber() {
    }

    /**
     * The text with every secret replaced by {@code [REDACTED:<kind>]}; null stays null, so callers can pass optional
     * fields straight through.
     */
    public String scrub(String text) {
        if (text == null || text.isEmpty()) {
            return text;
        }
        String scrubbed = text;
        long triggered = TRIGGERS.find(scrubbed);
        for (int i = 0; i < RULES.size() && triggered != 0; i++) {
            if ((triggered & (1L << i)) == 0) {
                continue;
            }
            Guarded guarded = RULES.get(i);
            String after = guarded.rule().apply(scrubbed, guarded.triggers());
            if (!after.equals(scrubbed)) {
                // A redaction adds "[REDACTED:<kind>]" and takes text away: look again at what later rules need.
                scrubbed = after;
                triggered = TRIGGERS.find(scrubbed) & (-1L << (i + 1));
            }
        }
        return scrubbed;
    }

    /** The text with A-Z in lower case and nothing else changed, so that every index stays where it was. */
    private static String asciiLowerCase(String text) {
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c >= 'A' && c <= 'Z') {
                char[] chars = text.toCharArray();
                for (int j = i; j < chars.length; j++) {
                    if (chars[j] >= 'A' && chars[j] <= 'Z') {
                        chars[j] += 'a' - 'A';
                    }
                }
                return new String(chars);
            }
        }
        return text;
    }

    private static String marker(String kind) {
        return MARKER + kind + "]";
    }

    private static boolean hasDigit(String value) {
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            if (c >= '0' && c <= '9') {
                return true;
            }
        }
        return false;
    }

    /** Whether a value is a credential rather than a reference to one or an earlier redaction. */
    private static boolean notAReference(String value) {
        return !(value.startsWith(MARKER) || value.startsWith("$") || value.startsWith("%") || value.startsWith("<")
                || value.startsWith("{") || isOneRepeatedCharacter(value));
    }

    private static boolean isOneRepeatedCharacter(String value) {
        for (int i = 1; i < value.length(); i++) {
            if (value.charAt(i) != value.charAt(0)) {
                return false;
            }
        }
        return true;
    }

    /** The kind named by the assignment's key word ({@code key} group). */
    private static String assignmentKind(Matcher match) {
        String key = match.group("key").toLowerCase(Locale.ROOT);
        if (key.startsWith("api")) {
            return "api-key";
        }
        if (key.startsWith("client")) {
            return "client-secret";
        }
        if (key.startsWith("passw")) {
            return "password";
        }
        return key;
    }

    /**
     * Whether an assignment's value is a credential. Groups: {@code key} the key word, {@code sep} the separator,
     * {@code dq}, {@code sq} or {@code bare} the double-quoted, single-quoted or unquoted value.
     */
    private static boolean isAssignedSecret(CharSequence text, Matcher match) {
        String bare = match.group("bare");
        boolean quoted = bare == null;
        String value = quoted ? (match.group("dq") != null ? match.group("dq") : match.group("sq")) : bare;
        boolean password = match.group("key").toLowerCase(Locale.ROOT).startsWith("passw");
        int minimum = quoted ? (password ? 1 : 4) : (password ? 4 : 8);
        if (value.length() < minimum || !notAReference(value) || value.startsWith("=")
                || PLACEHOLDERS.contains(value.toLowerCase(Locale.ROOT))) {
            return false;
        }
        if (quoted) {
            return true;
        }
        int end = match.end();
        // Code, not a literal: a call (token = generateToken()) or a member (password = settings.DB_PASSWORD).
        if (end < text.length() && text.charAt(end) == '(' || DOTTED_IDENTIFIER.matcher(value).matches()) {
            return false;
        }
        // Prose, not configuration: "Forgot password: click the link" (a plain word after a colon, and more words).
        boolean plainWord = value.chars().allMatch(Character::isLetter);
        boolean proseContinues = end + 1 < text.length() && text.charAt(end) == ' '
                && Character.isLetter(text.charAt(end + 1));
        return !(match.group("sep").equals(":") && plainWord && proseContinues);
    }

    /**
     * One kind of secret: rewrites the text with that kind redacted. {@code starts} are the rule's triggers, lower
     * case: each match starts with one of them, ignoring ASCII case.
     */
    private interface Rule {
        String apply(String text, String[] starts);
    }

    /**
     * {@code rule}, run only when the text contains one of {@code triggers} (lower case, at least three characters,
     * compared with the text ignoring ASCII case): a literal every match of the rule contains. Most text holds none,
     * and skipping a rule saves trying its pattern at every position.
     */
    private static Guarded when(Rule rule, String... triggers) {
        return new Guarded(rule, triggers);
    }

    private record Guarded(Rule rule, String... triggers) {
    }

    /**
     * Which rules a text triggers, found in one pass over it: a table says which two-character pairs (ASCII, lower
     * case) stand at the start of some trigger or one character into it, and only where such a pair stands are the
     * triggers it belongs to compared. Every trigger is three characters or more, so it holds a pair at an even
     * position of the text: looking at every second position finds them all. Searching for each trigger on its own
     * took 27 scans of every text and was most of the scrubber's cost on text holding no secret
     * (docs/benchmarks.md); the rules' patterns are ASCII, so ASCII case folding finds every text a rule can match.
     */
    private static final class TriggerIndex {

        /** By pair {@code first * 128 + second}: the triggers holding it at offset 0 or 1, with their rule's bit. */
        private final Trigger[][] byPair = new Trigger[128 * 128][];

        TriggerIndex(List<Guarded> rules) {
            if (rules.size() > Long.SIZE) {
                throw new IllegalStateException("a rule set of more than 64 rules needs a wider mask");
            }
            for (int i = 0; i < rules.size(); i++) {
                for (String trigger : rules.get(i).triggers()) {
                    if (trigger.length() < 3 || !trigger.equals(trigger.toLowerCase(Locale.ROOT))
                            || !trigger.chars().allMatch(c -> c < 128)) {
                        throw new IllegalStateException("a trigger is lower-case ASCII of three characters or more: "
                                + trigger);
                    }
                    for (int offset = 0; offset < 2; offset++) {
                        int pair = trigger.charAt(offset) * 128 + trigger.charAt(offset + 1);
                        Trigger[] existing = byPair[pair] == null ? new Trigger[0] : byPair[pair];
                        Trigger[] grown = Arrays.copyOf(existing, existing.length + 1);
                        grown[existing.length] = new Trigger(trigger, offset, 1L << i);
                        byPair[pair] = grown;
                    }
                }
            }
        }

        /** A mask with bit {@code i} set when the text contains a trigger of rule {@code i}. */
        long find(String text) {
            long found = 0;
            int last = text.length() - 1;
            for (int i = 0; i < last; i += 2) {
                int first = lower(text.charAt(i));
                int second = lower(text.charAt(i + 1));
                if ((first | second) >= 128) {
                    continue;
                }
                Trigger[] candidates = byPair[first * 128 + second];
                if (candidates == null) {
                    continue;
                }
                for (Trigger candidate : candidates) {
                    if ((found & candidate.rule()) == 0 && candidate.at(text, i - candidate.offset())) {
                        found |= candidate.rule();
                    }
                }
            }
            return found;
        }

        private static int lower(char c) {
            return c >= 'A' && c <= 'Z' ? c + ('a' - 'A') : c;
        }

        private record Trigger(String text, int offset, long rule) {

            boolean at(String in, int from) {
                if (from < 0 || from + text.length() > in.length()) {
                    return false;
                }
                for (int j = 0; j < text.length(); j++) {
                    if (lower(in.charAt(from + j)) != text.charAt(j)) {
                        return false;
                    }
                }
                return true;
            }
        }
    }

    /** The acceptance test of a regex match: whether it really is a secret. */
    private interface Acceptance {
        boolean test(CharSequence text, Matcher match);
    }

    /** The kind named in a match's marker. */
    private interface KindOf {
        String of(Matcher match);
    }

    /**
     * A rule as a regular expression; {@code secretGroup} is the group replaced (0 for the whole match, -1 for the
     * assignment rule's value group, whichever of {@code dq}, {@code sq} and {@code bare} matched); the rest of the
     * match is kept.
     */
    private record RegexRule(Pattern pattern, int secretGroup, KindOf kind, Acceptance acceptance) implements Rule {

        RegexRule(String regex, int secretGroup, KindOf kind, Acceptance acceptance) {
            this(Pattern.compile(regex), secretGroup, kind, acceptance);
        }

        /**
         * Tries the pattern only where one of {@code starts} stands (found by plain string search, ignoring ASCII
         * case), never at every position: a regular expression costs about 5 ns a character just to find nothing,
         * which made scrubbing most of ingest's work on text that holds no secret (docs/benchmarks.md).
         */
        @Override
        public String apply(String text, String[] starts) {
            Matcher matcher = pattern.matcher(text).useTransparentBounds(true).useAnchoringBounds(false);
            String lower = asciiLowerCase(text);
            int[] next = new int[starts.length];
            for (int i = 0; i < starts.length; i++) {
                next[i] = lower.indexOf(starts[i]);
            }
            StringBuilder out = null;
            int copied = 0;
            int from = 0;
            for (int at = nextStart(lower, starts, next, from); at >= 0; at = nextStart(lower, starts, next, from)) {
                matcher.region(at, text.length());
                if (!matcher.lookingAt() || !acceptance.test(text, matcher)) {
                    from = at + 1;
                    continue;
                }
                String valueGroup = secretGroup >= 0 ? null : firstPresent(matcher, "dq", "sq", "bare");
                int start = valueGroup == null ? matcher.start(secretGroup) : matcher.start(valueGroup);
                int end = valueGroup == null ? matcher.end(secretGroup) : matcher.end(valueGroup);
                if (out == null) {
                    out = new StringBuilder(text.length());
                }
                out.append(text, copied, start).append(marker(kind.of(matcher)));
                copied = end;
                from = Math.max(matcher.end(), at + 1);
            }
            if (out == null) {
                return text;
            }
            return out.append(text, copied, text.length()).toString();
        }

        /**
         * The first position at or after {@code from} where one of {@code starts} stands, or -1; {@code next} holds
         * each start's next position found so far (-1: no more), searched again only once passed.
         */
        private static int nextStart(String lower, String[] starts, int[] next, int from) {
            int first = -1;
            for (int i = 0; i < starts.length; i++) {
                if (next[i] >= 0 && next[i] < from) {
                    next[i] = lower.indexOf(starts[i], from);
                }
                if (next[i] >= 0 && (first < 0 || next[i] < first)) {
                    first = next[i];
                }
            }
            return first;
        }

        private static String firstPresent(Matcher matcher, String... groups) {
            for (String group : groups) {
                if (matcher.group(group) != null) {
                    return group;
                }
            }
            throw new IllegalStateException("no value group matched");
        }
    }

    /**
     * PEM private key blocks, found by scanning: the header by a short pattern, the END line by {@code indexOf}. A
     * block whose END line is missing (a truncated log), or comes only after the next BEGIN, is redacted through its
     * body: the rest of its line when the body is on the header's line (up to a closing quote inside a JSON string),
     * otherwise the following header and base64 lines.
     *
     * <p>Linear: every scan starts where the previous one stopped or is bounded by the next BEGIN, and the position of
     * the next END line is remembered, so many BEGINs before one END (or none) never rescan the text.
     */
    private static final class PemRule implements Rule {

        private static final Pattern BEGIN =
                Pattern.compile("-----BEGIN (?:[A-Z0-9]{1,20} ){0,3}PRIVATE KEY(?: BLOCK)?-----");
        private static final Pattern END =
                Pattern.compile("-----END (?:[A-Z0-9]{1,20} ){0,3}PRIVATE KEY(?: BLOCK)?-----");
        /** A body line: 16+ base64 characters, a shorter one with a digit or + / =, or an encrypted key's header. */
        private static final Pattern BODY_LINE = Pattern.compile("[A-Za-z0-9+/=]{16,200}"
                + "|(?=[A-Za-z]{0,15}[0-9+/=])[A-Za-z0-9+/=]{1,15}|(?:Proc-Type|DEK-Info|Comment): .{1,200}");

        @Override
        public String apply(String text, String[] starts) {
            Matcher begin = BEGIN.matcher(text);
            if (!begin.find()) {
                return text;
            }
            Matcher end = END.matcher(text);
            StringBuilder out = new StringBuilder(text.length());
            int copied = 0;
            int endStart = -1;
            int endEnd = -1;
            boolean noMoreEnds = false;
            int start = begin.start();
            int headerEnd = begin.end();
            while (true) {
                int nextBegin = begin.find(headerEnd) ? begin.start() : -1;
                int nextHeaderEnd = nextBegin >= 0 ? begin.end() : -1;
                if (!noMoreEnds && endStart < headerEnd) {
                    if (findEnd(text, end, headerEnd)) {
                        endStart = end.start();
                        endEnd = end.end();
                    } else {
                        noMoreEnds = true;
                    }
                }
                boolean closed = !noMoreEnds && (nextBegin < 0 || endStart < nextBegin);
                int limit = nextBegin < 0 ? text.length() : nextBegin;
                int blockEnd = closed ? endEnd : truncatedBodyEnd(text, headerEnd, limit);
                out.append(text, copied, start).append(marker("private-key"));
                copied = blockEnd;
                if (nextBegin >= 0 && nextBegin < blockEnd) {
                    // Only when an END line's dashes double as the next BEGIN's: look again after this block.
                    nextBegin = begin.find(blockEnd) ? begin.start() : -1;
                    nextHeaderEnd = nextBegin >= 0 ? begin.end() : -1;
                }
                if (nextBegin < 0) {
                    break;
                }
                start = nextBegin;
                headerEnd = nextHeaderEnd;
            }
            return out.append(text, copied, text.length()).toString();
        }

        /** Leaves {@code end} on the first END line at or after {@code from}; false when there is none. */
        private static boolean findEnd(String text, Matcher end, int from) {
            int at = text.indexOf("-----END ", from);
            while (at >= 0) {
                end.region(at, text.length());
                if (end.lookingAt()) {
                    return true;
                }
                at = text.indexOf("-----END ", at + 1);
            }
            return false;
        }

        /** Where a block without its END line stops: never beyond {@code limit}, the next BEGIN. */
        private static int truncatedBodyEnd(String text, int headerEnd, int limit) {
            int lineEnd = lineEnd(text, headerEnd, limit);
            boolean restOfLineBlank = true;
            for (int i = headerEnd; i < lineEnd; i++) {
                char c = text.charAt(i);
                if (c == '"') {
                    return i;
                }
                restOfLineBlank &= Character.isWhitespace(c);
            }
            if (!restOfLineBlank) {
                return lineEnd;
            }
            int bodyEnd = headerEnd;
            boolean blankSeen = false;
            int lineStart = lineEnd + 1;
            while (lineStart < limit) {
                int next = lineEnd(text, lineStart, limit);
                String line = text.substring(lineStart, next).strip();
                if (line.isEmpty()) {
                    // One blank line separates an encrypted key's headers from its body; two end the block.
                    if (blankSeen) {
                        break;
                    }
                    blankSeen = true;
                } else if (BODY_LINE.matcher(line).matches()) {
                    bodyEnd = lineStart + text.substring(lineStart, next).stripTrailing().length();
                    blankSeen = false;
                } else {
                    break;
                }
                lineStart = next + 1;
            }
            return bodyEnd;
        }

        private static int lineEnd(String text, int from, int limit) {
            for (int i = from; i < limit; i++) {
                if (text.charAt(i) == '\n') {
                    return i;
                }
            }
            return limit;
        }
    }
}
