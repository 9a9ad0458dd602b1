#!/usr/bin/env bash
# What a tenant flooding ingest does to another tenant's latency, with tenant quotas off and on: the four packaged
# services on the build's test broker, registry and PostgreSQL; a calm tenant appends one message 20 times a second,
# alone and then beside a tenant sending 100-event batches on 8 connections. Not part of CI.
#   bench/tenant-isolation.sh [seconds-per-phase=30] [flooding tenant's quota, events/s=1000]
# A quota protects only below what the machine can take: on one 2-core machine running everything, the whole system
# takes about 3,000 events/s, so the default quota (10,000 events/s per replica) would never bite here; the flooding
# tenant gets its own quota below that. Figures: system-tests/target/tenant-isolation-{off,on,polite}.md.
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
cd "$ROOT"
[ -f ingest-service/target/quarkus-app/quarkus-run.jar ] || mvn -q install -DskipTests
# off: no quotas; on: quotas, the flood ignoring Retry-After (an abusive client); polite: quotas, the flood waiting as
# Retry-After says (as OpenTelemetry exporters and well-behaved producers do).
for variant in off on polite; do
  quotas=$([ "$variant" = off ] && echo false || echo true)
  polite=$([ "$variant" = polite ] && echo true || echo false)
  mvn -q verify -pl system-tests -Dit.test=TenantIsolationBenchmark -Dhindsight.bench.quotas="$quotas" \
    -Dhindsight.bench.seconds="${1:-30}" -Dhindsight.bench.flood-quota="${2:-1000}" \
    -Dhindsight.bench.flood-honours-retry-after="$polite"
  mv system-tests/target/tenant-isolation.md "system-tests/target/tenant-isolation-$variant.md"
  cat "system-tests/target/tenant-isolation-$variant.md"
done
