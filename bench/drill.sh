#!/usr/bin/env bash
# The long fault drill: the whole system (two query-service replicas, a broker and a PostgreSQL of its own) under a
# steady load of about 1,200 events/s while each component is killed with SIGKILL and started again: a query replica
# three times (another one running), ingest twice, the broker, PostgreSQL alone, the broker and PostgreSQL together,
# evaluation and memory. Then every acknowledged event must be in every read model exactly once, every consumer
# group's lag zero and no dead letter new. The short drill (300 events/s, one fault of each kind) runs in every build
# as FaultDrillIT; this is the same test, longer. Not part of CI. Figures: system-tests/target/drill-figures.md.
#   bench/drill.sh [events-per-second=1200] [seconds-between-faults=30] [sessions=3000]
# Needs what the build needs (Java 17, Maven, PostgreSQL's binaries); builds what is missing first.
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
cd "$ROOT"
[ -f ingest-service/target/quarkus-app/quarkus-run.jar ] && [ -d deploy/local/target/kafka-libs ] \
  || mvn -q install -DskipTests
mvn -q verify -pl system-tests -Dit.test=FaultDrillIT -Dhindsight.drill.long=true \
  -Dhindsight.drill.events-per-second="${1:-1200}" -Dhindsight.drill.between-seconds="${2:-30}" \
  -Dhindsight.drill.sessions="${3:-3000}" "${@:4}"
cat system-tests/target/drill-figures.md
