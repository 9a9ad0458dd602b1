#!/usr/bin/env bash
# OTLP spans/s through POST /otlp/v1/traces beside events/s through POST /v1/events:batch for the same agent
# conversations, in one run: the four packaged services on the build's test broker, registry and PostgreSQL, tenant
# quotas off, 8 clients back to back, the two paths alternating twice after a warm-up. Not part of CI.
#   bench/otlp-throughput.sh [seconds-per-phase=20] [conversations-per-request=25] [clients=8]
# Figures: system-tests/target/otlp-throughput.md (docs/benchmarks.md keeps the current ones).
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
cd "$ROOT"
[ -f ingest-service/target/quarkus-app/quarkus-run.jar ] || mvn -q install -DskipTests
mvn -q verify -pl system-tests -Dit.test=OtlpThroughputBenchmark -Dhindsight.bench.seconds="${1:-20}" \
  -Dhindsight.bench.conversations="${2:-25}" -Dhindsight.bench.concurrency="${3:-8}"
cat system-tests/target/otlp-throughput.md
