#!/usr/bin/env bash
# The console's session page under load (issue #21): a session of MESSAGES messages (every other one an assistant
# answer with three thinking steps, one of them a tool call), read as a signed-in browser reads it. Not part of CI.
# Needs `./hindsight up`.
#   bench/console-page.sh [messages=500] [seconds=20] [connections=16]
# Prints what a browser downloads (the page compressed as sent, and uncompressed; the stylesheet and script with
# their cache headers), then the page's latency: bench/ReadLatency.java, closed loop, after a 5 s warm-up.
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
source "$ROOT/.hindsight/env"
MESSAGES="${1:-500}"
SECONDS_RUN="${2:-20}"
CONNECTIONS="${3:-16}"
SESSION="bench-console-prose-$MESSAGES"
AUTH="Authorization: Bearer $HINDSIGHT_API_KEY"

# The session, once: its messages in requests of 100.
if [ "$(curl -s -o /dev/null -w '%{http_code}' -H "$AUTH" "$HINDSIGHT_QUERY_URL/v1/sessions/$SESSION")" != 200 ]; then
  curl -sf -H "$AUTH" -H 'Content-Type: application/json' \
    -d "{\"session_id\":\"$SESSION\",\"kind\":\"chat\",\"chat\":{\"agent\":\"bench\",\"model\":\"gpt-5\"}}" \
    "$HINDSIGHT_INGEST_URL/v1/sessions" >/dev/null
  python3 - "$MESSAGES" <<'PY' | while read -r body; do
import json, random, string, sys
n = int(sys.argv[1])
# Text that compresses about as well as English prose (gzip to about a third), not a repeated phrase.
rng = random.Random(42)
vocabulary = ["".join(rng.choice(string.ascii_lowercase) for _ in range(rng.randint(2, 9))) for _ in range(3000)]
def text(k, i):
    words, size = [], 0
    while size < k:
        words.append(rng.choice(vocabulary))
        size += len(words[-1]) + 1
    return " ".join(words)
for start in range(0, n, 100):
    messages = []
    for i in range(start, min(n, start + 100)):
        if i % 2 == 0:
            messages.append({"message_index": i, "role": "user", "content": text(200, i)})
        else:
            messages.append({"message_index": i, "role": "assistant", "content": text(800, i), "thinking_steps": [
                {"step_order": 0, "step_type": "reasoning", "content": text(300, i)},
                {"step_order": 1, "step_type": "tool", "tool_name": "get_prices",
                 "tool_arguments": {"symbols": ["NVDA", "GOOGL"], "day": "2025-10-02"}, "tool_result": text(500, i)},
                {"step_order": 2, "step_type": "reasoning", "content": text(200, i)}]})
    print(json.dumps({"messages": messages}))
PY
    curl -sf -H "$AUTH" -H 'Content-Type: application/json' -d "$body" \
      "$HINDSIGHT_INGEST_URL/v1/sessions/$SESSION/messages" >/dev/null
  done
  for i in $(seq 1 60); do
    total=$(curl -s -H "$AUTH" "$HINDSIGHT_QUERY_URL/v1/sessions/$SESSION" | python3 -c 'import json,sys; print(json.load(sys.stdin).get("total_messages", 0))' 2>/dev/null || echo 0)
    [ "$total" = "$MESSAGES" ] && break
    sleep 1
  done
fi

# Signed in as a browser is.
cookie=$(curl -s -o /dev/null -D - --data-urlencode "api_key=$HINDSIGHT_API_KEY" "$HINDSIGHT_QUERY_URL/ui/sign-in" \
  | sed -n 's/^[Ss]et-[Cc]ookie: \(hindsight_console=[^;]*\).*/\1/p')
[ -n "$cookie" ] || { echo "sign-in failed" >&2; exit 1; }
page="$HINDSIGHT_QUERY_URL/ui/sessions/$SESSION"
sent=$(curl -s -o /dev/null -w '%{size_download}' -H "Cookie: $cookie" -H 'Accept-Encoding: gzip' "$page")
whole=$(curl -s -o /dev/null -w '%{size_download}' -H "Cookie: $cookie" "$page")
shown=$(curl -s -H "Cookie: $cookie" "$page" | grep -c 'class="message ' || true)
echo "== /ui/sessions/$SESSION: $shown messages shown; $sent bytes sent (gzip), $whole bytes uncompressed"
for asset in /ui/assets/console-5.css /ui/assets/console-1.js; do
  headers=$(curl -s -o /dev/null -D - -H 'Accept-Encoding: gzip' -w 'size %{size_download}\n' "$HINDSIGHT_QUERY_URL$asset")
  echo "   $asset: $(sed -n 's/^size //p' <<<"$headers") bytes sent, $(grep -i '^cache-control' <<<"$headers" | tr -d '\r')"
done
HINDSIGHT_COOKIE="$cookie" java "$ROOT/bench/ReadLatency.java" "/ui/sessions/$SESSION" "$SECONDS_RUN" "$CONNECTIONS"
