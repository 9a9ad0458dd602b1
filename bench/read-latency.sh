#!/usr/bin/env bash
# Read latency of query-service under concurrent connections (issue #4), closed loop with wrk: every connection sends
# its next request as soon as the last is answered, so the service runs flat out. Not part of CI. Needs
# `./hindsight up` and wrk (bench/wrk.sh installs the Debian package when it is missing).
#   bench/read-latency.sh [seconds=20] [connections=64] [hot=1000]
# Three loads, each after a 10 s warm-up of its own:
#   sessions, any    GET /v1/sessions/{id} for ids drawn uniformly from every session of tenant "demo" in the read
#                    model (with a large read model most are not in the read cache: PostgreSQL answers)
#   sessions, hot    the same over the first [hot] of those ids (a dashboard's working set: the read cache answers)
#   reasoning        GET /reasoning for the demo's trading model-day with the full conversation
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
source "$ROOT/.hindsight/env"
source "$ROOT/deploy/local/lib.sh"
SECONDS_RUN="${1:-20}"
CONNECTIONS="${2:-64}"
HOT="${3:-1000}"
WRK="$ROOT/bench/wrk.sh"
IDS=/tmp/hindsight-bench-session-ids.txt

query() { psql -h "$PGHOST" -p "$PGPORT" -U hindsight -d hindsight_query -tAc "$1"; }
generation=$(query "SELECT generation FROM read_model_generation WHERE state = 'current'")
echo "read model rm_$generation: $(query "SELECT count(*) FROM rm_$generation.message") messages in \
$(query "SELECT count(*) FROM rm_$generation.session") sessions"
query "SELECT session_id FROM rm_$generation.session WHERE tenant_id = 'demo' ORDER BY random()" > "$IDS"

run() {  # run LABEL WRK_ARGS... : a warm-up, then the measured run's summary and percentiles
  local label="$1"; shift
  "$WRK" -t1 -c"$CONNECTIONS" -d10s -H "Authorization: Bearer $HINDSIGHT_API_KEY" "$@" >/dev/null
  echo "== $label ($CONNECTIONS connections, ${SECONDS_RUN} s)"
  "$WRK" -t1 -c"$CONNECTIONS" -d"${SECONDS_RUN}s" --latency -H "Authorization: Bearer $HINDSIGHT_API_KEY" "$@" \
    | grep -E '^ +(50|90|99)(\.000)?%|Requests/sec|Non-2xx|Socket errors'
}

run "GET /v1/sessions/{id}, any of $(wc -l < "$IDS") sessions" -s "$ROOT/bench/sessions.lua" "$HINDSIGHT_QUERY_URL" -- "$IDS"
run "GET /v1/sessions/{id}, $HOT hot sessions" -s "$ROOT/bench/sessions.lua" "$HINDSIGHT_QUERY_URL" -- "$IDS" "$HOT"
run "GET /reasoning?date=2025-10-02&model=gpt-5&include_full_conversation=true" \
  "$HINDSIGHT_QUERY_URL/reasoning?date=2025-10-02&model=gpt-5&include_full_conversation=true"
